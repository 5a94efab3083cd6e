import { ms } from '../support/stats.ts';
import { table } from '../support/table.ts';
import { REGISTER_RATIO_MAX, registerCostMet, registerRatios } from './register-cost.ts';
import type { SqlResult } from './run.ts';

/**
 * The SQL-at-scale tables: latency per scenario end to end and server side, against the
 * targets, then each statement's plan in short.
 *
 * @example
 * ```ts
 * console.log(renderSql(result));
 * ```
 */
export const renderSql = (result: SqlResult): string => {
  const rows = result.scenarios.map((s) => [
    s.name,
    String(s.endToEnd.n),
    `${ms(s.endToEnd.p50)} ms`,
    `${ms(s.endToEnd.p99)} ms`,
    `${ms(s.statement.p50)} ms`,
    `${ms(s.statement.p99)} ms`,
    s.explain === null ? '–' : `${ms(s.explain.executionMs)} + ${ms(s.explain.planningMs)} ms`,
    `< ${s.targetMs} ms`,
    s.met
      ? 'yes'
      : `NO${s.unexpectedStatuses.length > 0 ? ` (${s.unexpectedStatuses[0]?.slice(0, 40)})` : ''}${(s.explain?.seqScans.length ?? 0) > 0 ? ' (seq scan)' : ''}`,
  ]);
  const counts = Object.entries(result.seed.rows)
    .map(([t, n]) => `${t} ${n.toLocaleString('en-US')}`)
    .join(', ');
  const plans = result.scenarios.flatMap((s) => [
    `${s.name}: indexes ${s.explain?.indexes.join(', ') || '–'}; sequential scans on big tables: ${s.explain?.seqScans.join(', ') || 'none'}`,
  ]);
  return [
    `SQL at scale on ${result.server.version?.split(' ').slice(0, 2).join(' ') ?? 'PostgreSQL'} (shared_buffers ${result.server.shared_buffers}, work_mem ${result.server.work_mem}, jit ${result.server.jit})`,
    `Seeded: ${counts}.`,
    '',
    table(
      [
        'scenario',
        'n',
        'end to end p50',
        'end to end p99',
        'statement p50',
        'statement p99',
        'EXPLAIN exec + plan',
        'target (statement p99)',
        'met',
      ],
      rows,
    ),
    '',
    "Statement = the request's one SQL statement timed where the emulator hands it to PostgreSQL (server work + loopback).",
    'End to end = HTTP through the emulated API Gateway, the handler, the SDK and the Data API emulator (both in this Node process).',
    `Commit floor on this server (a one-row INSERT committed alone, part of every write): p50 ${ms(result.commitFloor.before.p50)} / p99 ${ms(result.commitFloor.before.p99)} ms before the scenarios, p50 ${ms(result.commitFloor.after.p50)} / p99 ${ms(result.commitFloor.after.p99)} ms after.`,
    '',
    "The outbox's cost (the same statement with its event rows and with its outbox CTEs cut out, in turns, after the scenarios):",
    table(
      [
        'statement',
        'events',
        'n',
        'with outbox p50',
        'with outbox p99',
        'without p50',
        'without p99',
        'p50 difference',
      ],
      result.outboxCost.map((c) => [
        c.name,
        String(c.events),
        String(c.withOutbox.n),
        `${ms(c.withOutbox.p50)} ms`,
        `${ms(c.withOutbox.p99)} ms`,
        `${ms(c.withoutOutbox.p50)} ms`,
        `${ms(c.withoutOutbox.p99)} ms`,
        `+${ms(c.withOutbox.p50 - c.withoutOutbox.p50)} ms`,
      ]),
    ),
    '',
    `The location register's checks (${result.dataset.register.toLocaleString('en-US')} locations; the unchecked statement of the schemas before it, the route's with the default settings and with LOCATIONS_REGISTERED_ONLY=true, in turns, after the outbox's cost; target: p99 within the target and no worse than ${REGISTER_RATIO_MAX} × unchecked):`,
    table(
      ['statement', 'variant', 'n', 'p50', 'p99', 'p50 / unchecked', 'p99 / unchecked', 'EXPLAIN exec + plan', 'met'],
      (result.registerCost ?? []).flatMap((c) => {
        const ratios = registerRatios(c);
        return c.variants.map((v, k) => {
          const ratio = k === 0 ? undefined : ratios[k - 1];
          return [
            k === 0 ? c.name : '',
            v.name,
            String(v.statement.n),
            `${ms(v.statement.p50)} ms`,
            `${ms(v.statement.p99)} ms`,
            ratio === undefined ? '1' : `${ratio.p50.toFixed(2)} ×`,
            ratio === undefined ? '1' : `${ratio.p99.toFixed(2)} ×`,
            v.explain === null ? '–' : `${ms(v.explain.executionMs)} + ${ms(v.explain.planningMs)} ms`,
            k === 0 ? (registerCostMet(c) ? 'yes' : 'NO') : '',
          ];
        });
      }),
    ),
    ...(result.registerCost ?? []).flatMap((c) =>
      c.variants.map(
        (v) =>
          `${c.name}, ${v.name}: indexes ${v.explain?.indexes.join(', ') || '–'}; sequential scans on big tables: ${v.explain?.seqScans.join(', ') || 'none'}`,
      ),
    ),
    ...(result.registerCpu === undefined
      ? []
      : [
          '',
          "The same by the server backend's CPU time per statement (a direct connection, in turns, committed; not stretched by other work on the machine):",
          table(
            ['statement', 'variant', 'n', 'CPU p50', 'CPU p99', 'CPU p50 / unchecked', 'clock p50'],
            result.registerCpu.flatMap((c) => {
              const base = c.variants[0]?.cpu.p50 ?? Number.NaN;
              return c.variants.map((v, k) => [
                k === 0 ? c.name : '',
                v.name,
                String(v.cpu.n),
                `${ms(v.cpu.p50)} ms`,
                `${ms(v.cpu.p99)} ms`,
                k === 0 ? '1' : `${(v.cpu.p50 / base).toFixed(2)} ×`,
                `${ms(v.wall.p50)} ms`,
              ]);
            }),
          ),
        ]),
    '',
    `Plans (tables of ${result.bigTables.length > 0 ? result.bigTables.join(', ') : 'none'} count as big):`,
    ...plans,
    '',
    `Targets (reads and single writes p99 < 10 ms, the 500s < 50 ms, no sequential scan on a big table): ${result.met ? 'met' : 'MISSED'}`,
  ].join('\n');
};
