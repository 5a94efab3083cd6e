import type { Db } from '../db/types.ts';
import type { EventEnvelope } from './entries.ts';
import { eventPageSql } from './envelope.ts';

/**
 * The relay's statements on the outbox (`cargo.event`), its publication mark
 * (`cargo.event_relay.last_published`: everything above it is still to publish) and its lease on
 * that row (`lease_holder` until `lease_until`, migration 018). Each step of a run is one
 * statement, the lease taken or renewed in the same statement as the step's read or mark.
 */

/** A run of the relay: its holder id, and how long each statement that takes or renews the lease holds it. */
export interface RelayLease {
  /** A UUID of the run's own. */
  readonly holder: string;
  readonly seconds: number;
}

const HOLDER = 'CAST(:holder AS uuid)';
const UNTIL = 'now() + make_interval(secs => CAST(:lease_seconds AS integer))';

/**
 * Takes the lease (free, this run's own, or expired) and reads the page after the mark, in one
 * statement. A run that waits here for another's renewal reads the row again once that commits,
 * finds the other holder and takes nothing: no row. Taken, one row at least (an empty envelope
 * when nothing is pending).
 */
const PENDING_SQL = `
WITH lease AS (
  UPDATE cargo.event_relay r
  SET lease_holder = ${HOLDER}, lease_until = ${UNTIL}
  WHERE r.lease_holder IS NULL OR r.lease_holder = ${HOLDER} OR r.lease_until <= now()
  RETURNING r.last_published
),
pending AS (${eventPageSql('(SELECT l.last_published FROM lease l)')})
SELECT p.envelope, p.page_count
FROM lease l LEFT JOIN pending p ON true
ORDER BY CAST(p.envelope ->> 'sequence' AS bigint)`;

// Only the holder moves the mark, renewing its lease; never backwards.
const MARK_SQL = `
UPDATE cargo.event_relay
SET last_published = GREATEST(last_published, :sequence), lease_until = ${UNTIL}
WHERE lease_holder = ${HOLDER}`;

const RELEASE_SQL = `UPDATE cargo.event_relay SET lease_holder = NULL, lease_until = NULL WHERE lease_holder = ${HOLDER}`;

const PRUNE_BATCH = 5_000;

/**
 * One batch of the pruning: of the oldest published events by sequence (the primary key, the
 * outbox's one index), at most {@link PRUNE_BATCH}, those past the retention. Sequences follow
 * the events' times, to within the moments two writes overlap, so a batch that holds one still
 * young ends the run, and the old ones after it go once it is old too. A run reads at most a
 * batch more than it deletes, whatever the outbox holds.
 */
export const PRUNE_SQL = `
DELETE FROM cargo.event d
WHERE d.sequence IN (
  SELECT oldest.sequence
  FROM (SELECT e.sequence, e.occurred_at FROM cargo.event e
        WHERE e.sequence <= (SELECT r.last_published FROM cargo.event_relay r)
        ORDER BY e.sequence
        LIMIT ${PRUNE_BATCH}) AS oldest
  WHERE oldest.occurred_at < now() - make_interval(days => CAST(:days AS integer)))`;

// A run's last statement: measures, and releases the lease if this run still holds it.
const MEASURE_SQL = `
WITH released AS (${RELEASE_SQL} RETURNING 1)
SELECT COALESCE((
  SELECT floor(extract(epoch FROM now() - e.occurred_at))::bigint
  FROM cargo.event e
  WHERE e.sequence > (SELECT r.last_published FROM cargo.event_relay r)
  ORDER BY e.sequence
  LIMIT 1), 0) AS age_seconds`;

/**
 * The next events to publish, in sequence order, at most `limit` (fewer when they are large), and
 * whether more may be pending: the page was full, or cut for size. `held` false: another run
 * holds the lease, and nothing was read.
 */
export const readPending = async (
  db: Db,
  lease: RelayLease,
  limit: number,
): Promise<{ held: boolean; events: EventEnvelope[]; more: boolean }> => {
  const { rows } = await db.query<{ envelope: EventEnvelope | null; page_count: number | null }>(PENDING_SQL, {
    holder: lease.holder,
    lease_seconds: lease.seconds,
    limit,
  });
  const events = rows.flatMap((row) => (row.envelope === null ? [] : [row.envelope]));
  const allowed = Number(rows[0]?.page_count ?? 0);
  return { held: rows.length > 0, events, more: allowed === limit || events.length < allowed };
};

/** Records that every event up to `sequence` is published; false when the run no longer holds the lease (nothing changed). */
export const markPublished = async (db: Db, lease: RelayLease, sequence: number): Promise<boolean> => {
  const { rowsUpdated } = await db.query(MARK_SQL, {
    holder: lease.holder,
    lease_seconds: lease.seconds,
    sequence,
  });
  return rowsUpdated === 1;
};

/** Deletes published events older than `retentionDays`, in batches; returns how many went. */
export const prunePublished = async (db: Db, retentionDays: number, maxBatches = 20): Promise<number> => {
  let removed = 0;
  for (let batch = 0; batch < maxBatches; batch += 1) {
    const { rowsUpdated } = await db.query(PRUNE_SQL, { days: retentionDays });
    removed += rowsUpdated;
    if (rowsUpdated < PRUNE_BATCH) break;
  }
  return removed;
};

/**
 * Seconds since the oldest unpublished event occurred (0 when every event is published), and the
 * lease released if `holder` still holds it: the last statement of a run.
 */
export const measureAndRelease = async (db: Db, holder: string): Promise<number> => {
  const { rows } = await db.query<{ age_seconds: number }>(MEASURE_SQL, { holder });
  return Number(rows[0]?.age_seconds ?? 0);
};

/** Releases the lease if `holder` still holds it: a run that fails ends with it. */
export const releaseLease = async (db: Db, holder: string): Promise<void> => {
  await db.query(RELEASE_SQL, { holder });
};
