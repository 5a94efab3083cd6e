import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DataApiDb } from '../../lib/db/data-api.ts';
import { migrate } from '../../lib/db/migrate.ts';
import { migrations } from '../../lib/db/migrations/index.ts';
import { makeCargoFinder, makeScanRecorder } from '../../lib/location/locations.ts';
import { monthsAgo } from '../support/history.ts';
import { recordingDb, startMigrationDb } from '../support/data-api-session.ts';

/**
 * Migration 024 on a deployment that holds history: the spans of the current locations it keeps
 * are not known, and the cargo a void had forgotten before it (every scan voided, no current
 * location) are found, a partition at a time, so that their voided scans stay in their history
 * once they are scanned again.
 */
let db: DataApiDb;
let close: () => Promise<void> = async () => undefined;

beforeAll(async () => {
  ({ db, close } = await startMigrationDb());
});
afterAll(async () => close());

describe('migration 024: the span of each cargo', () => {
  it('finds the cargo forgotten before it and keeps their voided scans in their history', async () => {
    await migrate(
      db,
      migrations.filter((m) => m.id < 24),
    );
    // As the service before it left them: BOX-F001's two scans both voided (no current location),
    // BOX-F002 current at B-01, BOX-F003 current at C-01 with a voided scan before it.
    await db.query(
      `WITH stored AS (
         INSERT INTO cargo.location_record (cargo_no, location_code, off_shelf, scanned_at, occurred_at, recorded_by, device_id, voided_at, voided_by)
         VALUES ('BOX-F001', 'A-01', false, :old::timestamptz, :old::timestamptz, 'olga', 'PDA-1', now(), 'sam'),
                ('BOX-F001', 'A-02', false, now(), now(), 'olga', 'PDA-1', now(), 'sam'),
                ('BOX-F002', 'B-01', false, now(), now(), 'olga', 'PDA-1', NULL, NULL),
                ('BOX-F003', 'C-00', false, :old::timestamptz, :old::timestamptz, 'olga', 'PDA-1', now(), 'sam'),
                ('BOX-F003', 'C-01', false, now(), now(), 'olga', 'PDA-1', NULL, NULL)
         RETURNING *
       )
       INSERT INTO cargo.location_current (cargo_no, record_id, location_code, off_shelf, scanned_at, recorded_at, occurred_at, recorded_by, device_id)
       SELECT cargo_no, id, location_code, off_shelf, scanned_at, recorded_at, occurred_at, recorded_by, device_id
       FROM stored WHERE voided_at IS NULL`,
      { old: monthsAgo(40) },
    );
    const { rows: partitions } = await db.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM pg_inherits WHERE inhparent = 'cargo.location_record'::regclass",
    );

    const sent: string[] = [];
    expect(await migrate(recordingDb(db, sent), migrations)).toEqual(
      migrations.filter((m) => m.id >= 24).map((m) => m.id),
    );
    // The history locked against writes before anything is read, then one search per partition.
    const first = sent.findIndex((sql) => sql.startsWith('LOCK TABLE cargo.location_record IN SHARE MODE'));
    const searches = sent.filter((sql) => sql.startsWith('INSERT INTO cargo.location_forgotten'));
    expect(first).toBeGreaterThanOrEqual(0);
    expect(searches).toHaveLength(partitions[0]?.n ?? -1);
    expect(sent.indexOf(searches[0] ?? '')).toBeGreaterThan(first);

    const { rows: forgotten } = await db.query('SELECT cargo_no, first_at, last_at FROM cargo.location_forgotten');
    expect(forgotten).toEqual([{ cargo_no: 'BOX-F001', first_at: null, last_at: null }]);
    const { rows: spans } = await db.query(
      'SELECT cargo_no, first_at, last_at FROM cargo.location_current ORDER BY cargo_no',
    );
    expect(spans).toEqual([
      { cargo_no: 'BOX-F002', first_at: null, last_at: null },
      { cargo_no: 'BOX-F003', first_at: null, last_at: null },
    ]);

    // Scanned again: its voided scans, one of them 40 months back, are still its history.
    const find = makeCargoFinder({ db });
    // The statement that stores scans (without the register's checks: this database has no ERP view).
    const record = makeScanRecorder({ db });
    await record([{ cargo_no: 'BOX-F001', location_code: 'A-03', off_shelf: false }], 'olga');
    const again = await find('BOX-F001', { limit: 20 });
    expect(again.current?.location_code).toBe('A-03');
    expect(again.history.map((h) => [h.location_code, h.version])).toEqual([
      ['A-03', 1],
      ['A-02', 2],
      ['A-01', 2],
    ]);
    await record([{ cargo_no: 'BOX-F003', location_code: 'C-02', off_shelf: false }], 'olga');
    expect((await find('BOX-F003', { limit: 20 })).history.map((h) => h.location_code)).toEqual([
      'C-02',
      'C-01',
      'C-00',
    ]);
  });
});
