import type { RefusalCode } from '../i18n.ts';
import { sequenceAt, type QueuedScan } from '../queue.ts';

/**
 * Locate's current location: its code and when it was chosen (on the scale of the scans' `seq`),
 * so that a scan made there since can be told from one made at an earlier choice of the same code.
 */
export interface CurrentLocation {
  readonly code: string;
  readonly since: number;
}

/** A location chosen now (scanned, or taken for the location). */
export const chosenNow = (code: string): CurrentLocation => ({ code, since: sequenceAt(Date.now()) });

/** The refusals of a scan for its location, not for its cargo or its off-shelf switch. */
const LOCATION_REFUSALS: ReadonlySet<string> = new Set<RefusalCode>([
  'LOCATION_IS_CARGO',
  'LOCATION_BLOCKED',
  'LOCATION_NOT_FOUND',
  'INVALID_LOCATION_CODE',
]);

/**
 * Whether the service refused a scan made at the location since it was chosen, for the location:
 * then every later scan there would be refused too, and the location is let go. A location chosen
 * again after such a refusal is a new choice, which the refusals before it do not let go.
 *
 * @example
 * ```ts
 * refuted({ code: 'BOX-1005', since }, queue.refused); // true once BOX-1003 at BOX-1005 came back LOCATION_IS_CARGO
 * ```
 */
export const refuted = (location: CurrentLocation, refused: readonly QueuedScan[]): boolean =>
  refused.some(
    (q) =>
      q.scan.location_code === location.code &&
      q.seq >= location.since &&
      LOCATION_REFUSALS.has(q.error?.error_code ?? ''),
  );
