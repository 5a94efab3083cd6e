import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DataApiDb } from '../../lib/db/data-api.ts';
import { migrate } from '../../lib/db/migrate.ts';
import { migrations } from '../../lib/db/migrations/index.ts';
import { json } from '../../lib/db/types.ts';
import { makeCargoFinder, makeScanRecorder } from '../../lib/location/locations.ts';
import { startMigrationDb } from '../support/data-api-session.ts';

/**
 * A deployment from before the partitioned history: its location records move into the new
 * layout in the migration, and every cargo keeps its current location and its history.
 */
let db: DataApiDb;
let close: () => Promise<void> = async () => undefined;
const ago = (minutes: number) => new Date(Date.now() - minutes * 60_000).toISOString();

beforeAll(async () => {
  ({ db, close } = await startMigrationDb());
});
afterAll(async () => close());

describe('the migration to the partitioned location history', () => {
  it('moves every existing scan into the new layout and keeps each cargo where it was', async () => {
    const before = migrations.filter((m) => m.id < 5);
    await migrate(db, before);
    // Scans as the earlier release stored them: out of order, one older than every month kept.
    await db.query(
      `INSERT INTO cargo.location_record (cargo_no, location_code, off_shelf, scanned_at, recorded_at, occurred_at, recorded_by, device_id)
       SELECT s.cargo_no, s.location_code, s.off_shelf, s.at, now(), s.at, 'olga', 'PDA-1'
       FROM json_to_recordset(:scans) AS s (cargo_no text, location_code text, off_shelf boolean, at timestamptz)`,
      {
        scans: json([
          { cargo_no: 'BOX-M001', location_code: 'DOCK-1', off_shelf: true, at: ago(10) },
          { cargo_no: 'BOX-M001', location_code: 'A-01', off_shelf: false, at: ago(60) },
          { cargo_no: 'BOX-M001', location_code: 'A-02', off_shelf: false, at: ago(30) },
          { cargo_no: 'BOX-M002', location_code: 'B-01', off_shelf: false, at: '2001-05-01T00:00:00Z' },
          { cargo_no: 'BOX-M002', location_code: 'B-02', off_shelf: false, at: ago(60 * 24 * 90) },
        ]),
      },
    );
    const { rows: ids } = await db.query<{ id: string }>(
      "SELECT id::text AS id FROM cargo.location_record WHERE cargo_no = 'BOX-M001' ORDER BY occurred_at DESC",
    );

    expect(await migrate(db, migrations)).toEqual(migrations.filter((m) => m.id >= 5).map((m) => m.id));

    const find = makeCargoFinder({ db });
    const first = await find('BOX-M001', { limit: 20 });
    expect(first.current).toEqual(
      expect.objectContaining({
        location_code: 'DOCK-1',
        off_shelf: true,
        via: 'BOX',
        recorded_by: 'olga',
        device_id: 'PDA-1',
      }),
    );
    expect(first.history.map((h) => [h.id, h.location_code, h.voided_at])).toEqual([
      [ids[0]?.id, 'DOCK-1', null],
      [ids[1]?.id, 'A-02', null],
      [ids[2]?.id, 'A-01', null],
    ]);
    const second = await find('BOX-M002', { limit: 20 });
    expect(second.current?.location_code).toBe('B-02');
    expect(second.history.map((h) => h.location_code)).toEqual(['B-02', 'B-01']);
  });

  it('numbers new scans after the moved ones', async () => {
    const { records } = await makeScanRecorder({ db })(
      [{ cargo_no: 'BOX-M001', location_code: 'C-01', off_shelf: false }],
      'olga',
    );
    expect(BigInt(records[0]?.id ?? '0')).toBeGreaterThan(5n);
    expect((await makeCargoFinder({ db })('BOX-M001', { limit: 20 })).current?.location_code).toBe('C-01');
  });
});
