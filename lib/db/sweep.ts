import type { Db } from './types.ts';

/** At most this many expired keys per statement, so the sweep never holds long locks. */
const BATCH = 5_000;

const SWEEP_SQL = `
DELETE FROM cargo.idempotency_key k
WHERE k.ctid IN (SELECT e.ctid FROM cargo.idempotency_key e WHERE e.expires_at <= now() LIMIT ${BATCH})`;

/**
 * Deletes expired idempotency keys in batches; returns how many went.
 *
 * @example
 * ```ts
 * const removed = await sweepExpiredKeys(db);
 * ```
 */
export const sweepExpiredKeys = async (db: Db, maxBatches = 20): Promise<number> => {
  let removed = 0;
  for (let batch = 0; batch < maxBatches; batch += 1) {
    const { rowsUpdated } = await db.query(SWEEP_SQL);
    removed += rowsUpdated;
    if (rowsUpdated < BATCH) break;
  }
  return removed;
};
