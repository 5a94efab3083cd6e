import { table } from '../support/table.ts';
import type { RoundTripResult } from './run.ts';

/**
 * The round-trip table: one line per request of the walk.
 *
 * @example
 * ```ts
 * console.log(renderRoundTrips(result));
 * ```
 */
export const renderRoundTrips = (result: RoundTripResult): string => {
  const rows = result.rows.map((r) => [
    r.endpoint,
    r.case,
    r.key,
    r.status === r.expectedStatus ? String(r.status) : `${r.status} (expected ${r.expectedStatus})`,
    String(r.calls),
    r.calls === r.expectedCalls ? 'yes' : `NO (target ${r.expectedCalls})`,
  ]);
  const race = Object.entries(result.race.callsPerPair)
    .map(([calls, pairs]) => `${pairs} pair(s) cost ${calls} calls`)
    .join(', ');
  return [
    `Data API calls per request (${result.backend} behind the emulator)`,
    '',
    table(['endpoint', 'case', 'Idempotency-Key', 'status', 'Data API calls', 'on target'], rows),
    '',
    `Racing duplicates (two identical keyed requests at once, ${result.race.pairs} pairs): ${race}; same answer to both: ${result.race.sameAnswers ? 'yes' : 'NO'}.`,
    "  (1 + 1 = 2: the second arrived after the first committed and was replayed; 1 + 2 = 3: it overlapped, lost on the key's primary key and read the first answer.)",
    result.uncoveredRoutes.length === 0
      ? 'Every route of the route table was called.'
      : `Routes not called: ${result.uncoveredRoutes.join(', ')}`,
    `Target (1 call per request that reaches the database, 0 otherwise): ${result.met ? 'met' : 'MISSED'}`,
  ].join('\n');
};
