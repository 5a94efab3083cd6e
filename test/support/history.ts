import { BEFORE_BY_CARGO_INDEX } from '../../lib/db/trail-week.ts';
import type { Db } from '../../lib/db/types.ts';

/** The first instant of the month `months` before this one (UTC). */
export const monthsAgo = (months: number, day = 10) => {
  const now = new Date();
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - months, day, 12)).toISOString();
};
export const partitionOf = (iso: string) => `location_record_p${iso.slice(0, 4)}${iso.slice(5, 7)}`;
/**
 * The layout of a history kept since `months` months ago: a partition for each of those months,
 * as a layout migrated with older scans, or running for that long, has. The service started with
 * none (the maintenance drops the empty months before the first scan), so a test makes those
 * missing as the owner (`db`), moving what `before` held.
 */
export const historyLayout = async (db: Db, months: number) => {
  await db.query('ALTER TABLE cargo.location_record DETACH PARTITION cargo.location_record_before');
  await db.query('ALTER TABLE cargo.location_record_before RENAME TO location_record_before_old');
  for (let m = months; m >= 1; m -= 1) {
    const start = monthsAgo(m, 1).slice(0, 7);
    const end = monthsAgo(m - 1, 1).slice(0, 7);
    await db.query(
      `CREATE TABLE IF NOT EXISTS cargo.${partitionOf(start)} PARTITION OF cargo.location_record FOR VALUES FROM ('${start}-01T00:00:00Z') TO ('${end}-01T00:00:00Z')`,
    );
  }
  await db.query(
    `CREATE TABLE cargo.location_record_before PARTITION OF cargo.location_record FOR VALUES FROM (MINVALUE) TO ('${monthsAgo(months, 1).slice(0, 7)}-01T00:00:00Z')`,
  );
  await db.query(
    'INSERT INTO cargo.location_record OVERRIDING SYSTEM VALUE SELECT * FROM cargo.location_record_before_old',
  );
  await db.query('DROP TABLE cargo.location_record_before_old');
  await db.query(BEFORE_BY_CARGO_INDEX);
};

/**
 * The current locations of every cargo in the history, with their spans (migration 024), as the
 * statement that stores scans keeps them: for a test that writes its history by SQL, as the owner
 * (`db`). The newest scan not voided is current; the span reaches over every record, voided too.
 */
export const keepCurrentLocations = (db: Db) =>
  db.query(`INSERT INTO cargo.location_current AS c (cargo_no, record_id, location_code, off_shelf, scanned_at, recorded_at, occurred_at, recorded_by, device_id, first_at, last_at)
    SELECT DISTINCT ON (r.cargo_no) r.cargo_no, r.id, r.location_code, r.off_shelf, r.scanned_at, r.recorded_at, r.occurred_at, r.recorded_by, r.device_id,
           s.first_at, s.last_at
    FROM cargo.location_record r
    JOIN (SELECT cargo_no, min(occurred_at) AS first_at, max(occurred_at) AS last_at FROM cargo.location_record GROUP BY cargo_no) s ON s.cargo_no = r.cargo_no
    WHERE r.voided_at IS NULL
    ORDER BY r.cargo_no, r.occurred_at DESC, r.id DESC
    ON CONFLICT (cargo_no) DO UPDATE
    SET record_id = EXCLUDED.record_id, location_code = EXCLUDED.location_code, off_shelf = EXCLUDED.off_shelf, scanned_at = EXCLUDED.scanned_at,
        recorded_at = EXCLUDED.recorded_at, occurred_at = EXCLUDED.occurred_at, recorded_by = EXCLUDED.recorded_by, device_id = EXCLUDED.device_id,
        first_at = EXCLUDED.first_at, last_at = EXCLUDED.last_at`);
