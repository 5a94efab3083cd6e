import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DataApiDb } from '../../lib/db/data-api.ts';
import { migrate } from '../../lib/db/migrate.ts';
import { migrations } from '../../lib/db/migrations/index.ts';
import { json } from '../../lib/db/types.ts';
import { maintainLocationHistory, MONTHS_AHEAD } from '../../lib/location/history.ts';
import { makeCargoFinder, makeScanRecorder } from '../../lib/location/locations.ts';
import { makeScanVoider } from '../../lib/location/void.ts';
import { monthsAgo } from '../support/history.ts';
import { recordingDb, startMigrationDb } from '../support/data-api-session.ts';

/**
 * Migration 017 on a deployment that holds history in several months (a new layout reaches back
 * to the retention cutoff, a partition a month): the trail index is built again comparing codes
 * in "C", one Data API call per partition, and every cargo keeps its history, its current
 * location and its voids.
 */
let db: DataApiDb;
let close: () => Promise<void> = async () => undefined;

beforeAll(async () => {
  ({ db, close } = await startMigrationDb());
});
afterAll(async () => close());

/** Each partition of the history, and the collation its trail index compares cargo codes in. */
const trailCollations = () =>
  db.query<{ partition: string; collation: string }>(
    `SELECT p.relname::text AS partition, coll.collname::text AS collation
     FROM pg_inherits i
     JOIN pg_class p ON p.oid = i.inhrelid
     JOIN pg_index x ON x.indrelid = p.oid
     JOIN pg_attribute a ON a.attrelid = p.oid AND a.attnum = x.indkey[0] AND a.attname = 'cargo_no'
     JOIN pg_collation coll ON coll.oid = x.indcollation[0]
     WHERE i.inhparent = 'cargo.location_record'::regclass
     ORDER BY p.relname`,
  );

/** Every record of the history, as a deployment holds it: what a migration must keep. */
const allRecords = () =>
  db.query<{ id: string; cargo_no: string; location_code: string; occurred_at: string; voided: boolean }>(
    `SELECT id::text AS id, cargo_no, location_code, occurred_at::text AS occurred_at, voided_at IS NOT NULL AS voided
     FROM cargo.location_record ORDER BY id`,
  );

describe('migration 017: the history compares cargo codes in "C"', () => {
  it('builds the trail index a partition at a time, and keeps every record of the history', async () => {
    await migrate(
      db,
      migrations.filter((m) => m.id < 17),
    );
    // As the service of that time stored them: each scan in the history, the newest one current.
    const minuteAgo = new Date(Date.now() - 60_000).toISOString();
    await db.query(
      `WITH stored AS (
         INSERT INTO cargo.location_record (cargo_no, location_code, off_shelf, scanned_at, occurred_at, recorded_by, device_id)
         SELECT s.cargo_no, s.location_code, false, s.at, s.at, 'olga', 'PDA-1'
         FROM json_to_recordset(:scans) AS s (cargo_no text, location_code text, at timestamptz)
         RETURNING *
       )
       INSERT INTO cargo.location_current (cargo_no, record_id, location_code, off_shelf, scanned_at, recorded_at, occurred_at, recorded_by, device_id)
       SELECT DISTINCT ON (cargo_no) cargo_no, id, location_code, off_shelf, scanned_at, recorded_at, occurred_at, recorded_by, device_id
       FROM stored ORDER BY cargo_no, occurred_at DESC, id DESC`,
      {
        scans: json([
          { cargo_no: 'BOX-C001', location_code: 'A-01', at: monthsAgo(3) },
          { cargo_no: 'BOX-C001', location_code: 'A-02', at: monthsAgo(2) },
          { cargo_no: 'box-c001', location_code: 'Z-99', at: monthsAgo(1) },
          { cargo_no: 'BOX-C001', location_code: 'DOCK-1', at: minuteAgo },
          { cargo_no: 'BOX-C001', location_code: 'DOCK-2', at: new Date().toISOString() },
        ]),
      },
    );
    const { rows: before } = await allRecords();
    const { rows: partitions } = await db.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM pg_inherits WHERE inhparent = 'cargo.location_record'::regclass",
    );

    const sent: string[] = [];
    expect(
      await migrate(
        recordingDb(db, sent),
        migrations.filter((m) => m.id <= 17),
      ),
    ).toEqual([17]);

    const built = sent.filter((sql) => /^CREATE INDEX \S+ ON cargo\.location_record_/.test(sql));
    expect(built).toHaveLength(partitions[0]?.n ?? -1);
    const { rows: collations } = await trailCollations();
    expect(collations).toHaveLength(partitions[0]?.n ?? -1);
    expect(new Set(collations.map((c) => c.collation))).toEqual(new Set(['C']));
    const { rows: parent } = await db.query<{ valid: boolean }>(
      `SELECT x.indisvalid AS valid FROM pg_index x JOIN pg_class c ON c.oid = x.indexrelid
       WHERE c.relname = 'location_record_trail_idx' AND c.relnamespace = 'cargo'::regnamespace`,
    );
    expect(parent).toEqual([{ valid: true }]);
    expect((await allRecords()).rows).toEqual(before);
  });

  it('gives the months the maintenance makes after it the same index', async () => {
    const { created } = await maintainLocationHistory(db, { monthsKept: 25, monthsAhead: MONTHS_AHEAD + 2 });
    expect(created.length).toBeGreaterThan(0);
    const { rows } = await trailCollations();
    for (const month of created) expect(rows.find((r) => r.partition === month)?.collation).toBe('C');
  });

  it('leaves each cargo its history, its current location and its voids once the later migrations are applied', async () => {
    await migrate(db, migrations);
    const find = makeCargoFinder({ db });
    const found = await find('BOX-C001', { limit: 20 });
    expect(found.current?.location_code).toBe('DOCK-2');
    expect(found.history.map((h) => h.location_code)).toEqual(['DOCK-2', 'DOCK-1', 'A-02', 'A-01']);
    await makeScanVoider({ db })({ cargo_no: 'BOX-C001', id: found.current?.id ?? '', version: 1 }, 'sam');
    expect((await find('BOX-C001', { limit: 20 })).current?.location_code).toBe('DOCK-1');
    expect((await find('box-c001', { limit: 20 })).history.map((h) => h.location_code)).toEqual(['Z-99']);
    // And scans stored from then on are read with the rest.
    await makeScanRecorder({ db })([{ cargo_no: 'box-c001', location_code: 'Z-98', off_shelf: false }], 'olga');
    expect((await find('box-c001', { limit: 20 })).history.map((h) => h.location_code)).toEqual(['Z-98', 'Z-99']);
  });
});
