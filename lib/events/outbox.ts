import type { Db } from '../db/types.ts';
import type { EventEnvelope } from './entries.ts';
import { eventPageSql } from './envelope.ts';

/**
 * The relay's statements on the outbox (`cargo.event`) and its publication mark
 * (`cargo.event_relay.last_published`): everything above the mark is still to publish.
 */

const PENDING_SQL = eventPageSql('(SELECT r.last_published FROM cargo.event_relay r)');

// Never backwards: a slower copy of the relay that marks an older sequence changes nothing.
const MARK_SQL = `UPDATE cargo.event_relay SET last_published = :sequence WHERE last_published < :sequence`;

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

const OLDEST_SQL = `
SELECT COALESCE((
  SELECT floor(extract(epoch FROM now() - e.occurred_at))::bigint
  FROM cargo.event e
  WHERE e.sequence > (SELECT r.last_published FROM cargo.event_relay r)
  ORDER BY e.sequence
  LIMIT 1), 0) AS age_seconds`;

/**
 * The next events to publish, in sequence order, at most `limit` (fewer when they are large), and
 * whether more may be pending: the page was full, or cut for size.
 */
export const readPending = async (db: Db, limit: number): Promise<{ events: EventEnvelope[]; more: boolean }> => {
  const { rows } = await db.query<{ envelope: EventEnvelope; page_count: number }>(PENDING_SQL, { limit });
  const allowed = Number(rows[0]?.page_count ?? 0);
  return { events: rows.map((row) => row.envelope), more: allowed === limit || rows.length < allowed };
};

/** Records that every event up to `sequence` is published. */
export const markPublished = async (db: Db, sequence: number): Promise<void> => {
  await db.query(MARK_SQL, { sequence });
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

/** Seconds since the oldest unpublished event occurred; 0 when every event is published. */
export const oldestUnpublishedAge = async (db: Db): Promise<number> => {
  const { rows } = await db.query<{ age_seconds: number }>(OLDEST_SQL);
  return Number(rows[0]?.age_seconds ?? 0);
};
