import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { maintainLocationHistory } from '../../lib/location/history.ts';
import { historyLayout, keepCurrentLocations, monthsAgo, partitionOf } from '../support/history.ts';
import { minutesAgo, startTestService, type TestService } from '../support/service.ts';

/**
 * Location history at scale: the current location kept with every scan, history in monthly
 * partitions, retention by whole months. Through the gateway as a scanner would, plus the
 * scheduled maintenance as the stack runs it.
 */
let service: TestService;
beforeAll(async () => {
  service = await startTestService();
});
afterAll(async () => service?.close());

const LOCATION = '/v1/cargo/location';
const historySince = (months: number) => historyLayout(service.stack.owner, months);
const scan = (body: unknown) => service.call('POST', LOCATION, { body });
/** Whether the late scans older than every month are indexed by cargo (migration 023), as a history page reads them. */
const lateScansByCargo = async () =>
  (
    await service.stack.owner.query(
      `SELECT 1 FROM pg_indexes WHERE schemaname = 'cargo' AND tablename = 'location_record_before' AND indexname = 'location_record_before_cargo_idx'`,
    )
  ).rows.length === 1;
const where = async (cargoNo: string) => {
  const res = await service.call('GET', `${LOCATION}/${cargoNo}`);
  expect(res.status).toBe(200);
  return res.body as { current: { location_code: string; via: string }; history: { location_code: string }[] };
};

describe('the current location, kept with every scan', () => {
  it('keeps the newest scan current when a backlog of older scans of the same cargo arrives later', async () => {
    expect((await scan({ cargo_no: 'BOX-H101', location_code: 'DOCK-1', scanned_at: minutesAgo(5) })).status).toBe(201);
    expect(
      (
        await scan({
          records: [
            { cargo_no: 'BOX-H101', location_code: 'A-01', scanned_at: minutesAgo(50) },
            { cargo_no: 'BOX-H101', location_code: 'A-02', scanned_at: minutesAgo(20) },
          ],
        })
      ).status,
    ).toBe(201);
    const res = await where('BOX-H101');
    expect(res.current.location_code).toBe('DOCK-1');
    expect(res.history.map((h) => h.location_code)).toEqual(['DOCK-1', 'A-02', 'A-01']);
  });

  it('takes the newest scan of a backlog that holds several of one cargo, in any order', async () => {
    expect(
      (
        await scan({
          records: [
            { cargo_no: 'BOX-H102', location_code: 'B-01', scanned_at: minutesAgo(30) },
            { cargo_no: 'BOX-H102', location_code: 'B-03', scanned_at: minutesAgo(10) },
            { cargo_no: 'BOX-H103', location_code: 'C-01' },
            { cargo_no: 'BOX-H102', location_code: 'B-02', scanned_at: minutesAgo(20) },
          ],
        })
      ).status,
    ).toBe(201);
    expect((await where('BOX-H102')).current.location_code).toBe('B-03');
    expect((await where('BOX-H103')).current.location_code).toBe('C-01');
  });

  it('ends with the newest of many scans of one cargo sent at the same time', async () => {
    const sends = Array.from({ length: 12 }, (_, i) =>
      scan({ cargo_no: 'BOX-H104', location_code: `R-${i}`, scanned_at: minutesAgo(30 - i) }),
    );
    expect((await Promise.all(sends)).map((r) => r.status)).toEqual(Array(12).fill(201));
    expect((await where('BOX-H104')).current.location_code).toBe('R-11');
  });

  it('moves a box with its zongpai, and an older scan of the box does not take it back', async () => {
    await service.plan('BOX-H105', { 'SKU-A': 1 });
    expect((await service.call('POST', '/v1/zongpai', { body: { zongpai_no: 'PLT-H105' } })).status).toBe(201);
    expect(
      (await service.call('POST', '/v1/box/simple', { body: { box_no: 'BOX-H105', zongpai_no: 'PLT-H105' } })).status,
    ).toBe(201);
    await scan({ cargo_no: 'BOX-H105', location_code: 'PACK-1', scanned_at: minutesAgo(20) });
    await scan({ cargo_no: 'PLT-H105', location_code: 'DOCK-2', off_shelf: true, scanned_at: minutesAgo(10) });
    expect((await where('BOX-H105')).current).toEqual(
      expect.objectContaining({ location_code: 'DOCK-2', via: 'ZONGPAI' }),
    );
    await scan({ records: [{ cargo_no: 'BOX-H105', location_code: 'PACK-2', scanned_at: minutesAgo(15) }] });
    expect((await where('BOX-H105')).current).toEqual(
      expect.objectContaining({ location_code: 'DOCK-2', via: 'ZONGPAI' }),
    );
    await scan({ cargo_no: 'BOX-H105', location_code: 'C-07' });
    expect((await where('BOX-H105')).current).toEqual(expect.objectContaining({ location_code: 'C-07', via: 'BOX' }));
  });
});

describe('history by month', () => {
  it('stores a scan of any past time from the year 2000, even one older than every month kept', async () => {
    const res = await scan({
      records: [
        { cargo_no: 'BOX-H201', location_code: 'A-01', scanned_at: '2000-01-01T00:00:00Z' },
        { cargo_no: 'BOX-H201', location_code: 'A-02', scanned_at: monthsAgo(40) },
        { cargo_no: 'BOX-H201', location_code: 'A-03', scanned_at: monthsAgo(3) },
      ],
    });
    expect(res.status).toBe(201);
    expect((await where('BOX-H201')).history.map((h) => h.location_code)).toEqual(['A-03', 'A-02', 'A-01']);
  });

  it('drops the empty months before the first one holding scans, and stores their late scans all the same', async () => {
    await historySince(2);
    const done = await maintainLocationHistory(service.stack.db, { monthsKept: 25 });
    expect(done.folded).toEqual([partitionOf(monthsAgo(2)), partitionOf(monthsAgo(1))]);
    expect(await lateScansByCargo()).toBe(true);
    expect((await maintainLocationHistory(service.stack.db, { monthsKept: 25 })).folded).toEqual([]);
    const late = await scan({ records: [{ cargo_no: 'BOX-H202', location_code: 'LATE-2', scanned_at: monthsAgo(2) }] });
    expect(late.status).toBe(201);
    expect((await where('BOX-H202')).history.map((h) => h.location_code)).toEqual(['LATE-2']);
  });

  it('creates the months ahead the maintenance is asked for, once', async () => {
    const first = await maintainLocationHistory(service.stack.db, { monthsKept: 25, monthsAhead: 4 });
    expect(first.created).toEqual([partitionOf(monthsAgo(-3)), partitionOf(monthsAgo(-4))]);
    expect((await maintainLocationHistory(service.stack.db, { monthsKept: 25, monthsAhead: 4 })).created).toEqual([]);
  });

  it('refuses more than 12 months ahead, and creates none of them', async () => {
    await expect(maintainLocationHistory(service.stack.db, { monthsKept: 25, monthsAhead: 13 })).rejects.toThrow(
      /months ahead must be at most 12/,
    );
    const { rows } = await service.stack.db.query<{ table: string | null }>(
      `SELECT to_regclass('cargo.${partitionOf(monthsAgo(-5))}')::text AS table`,
    );
    expect(rows).toEqual([{ table: null }]);
  });
});

describe('scans ordered before the year 1', () => {
  // A backlog from a device whose clock ran ahead took a scan of year 0001 back into 1 BC;
  // such scans are refused now, but those stored before still page to the end.
  it('pages a history holding scans ordered before the year 1 to its end, each time with its era', async () => {
    await service.stack.owner.query(
      `INSERT INTO cargo.location_record (cargo_no, location_code, scanned_at, occurred_at, recorded_by)
       VALUES ('BOX-H401', 'A-01', '0001-01-01T00:00:00Z', '0002-06-01 00:00:00+00 BC', 'alice'),
              ('BOX-H401', 'A-02', '0001-01-01T00:00:00Z', '0001-12-31 23:56:00+00 BC', 'alice'),
              ('BOX-H401', 'A-03', now(), now(), 'alice')`,
    );
    await keepCurrentLocations(service.stack.owner);
    const pages: { location_code: string; occurred_at: string }[][] = [];
    let cursor: string | null = '';
    while (cursor !== null && pages.length < 5) {
      const res: { status: number; body: any } = await service.call(
        'GET',
        `${LOCATION}/BOX-H401?limit=1${cursor === '' ? '' : `&cursor=${cursor}`}`,
      );
      expect(res.status).toBe(200);
      pages.push(res.body.history);
      cursor = res.body.next_cursor;
    }
    expect(pages.map((page) => page.map((h) => h.location_code))).toEqual([['A-03'], ['A-02'], ['A-01']]);
    expect(pages.slice(1).map((page) => page[0]?.occurred_at)).toEqual([
      '0000-12-31T23:56:00.000Z',
      '-000001-06-01T00:00:00.000Z',
    ]);
  });

  it('shows cargo at a location since a time before the year 1 with its era', async () => {
    await service.stack.owner.query(
      `WITH r AS (
         INSERT INTO cargo.location_record (cargo_no, location_code, scanned_at, occurred_at, recorded_by)
         VALUES ('BOX-H402', 'ANCIENT-1', '0001-01-01T00:00:00Z', '0001-12-31 23:56:00+00 BC', 'alice')
         RETURNING *)
       INSERT INTO cargo.location_current (cargo_no, record_id, location_code, off_shelf, scanned_at, recorded_at, occurred_at, recorded_by)
       SELECT cargo_no, id, location_code, off_shelf, scanned_at, recorded_at, occurred_at, recorded_by FROM r`,
    );
    const res = await service.call('GET', '/v1/cargo/locations/ANCIENT-1/cargo');
    expect(res.status).toBe(200);
    expect(res.body.cargo).toEqual([
      expect.objectContaining({ cargo_no: 'BOX-H402', since: '0000-12-31T23:56:00.000Z' }),
    ]);
    expect((await where('BOX-H402')).current).toEqual(
      expect.objectContaining({ location_code: 'ANCIENT-1', occurred_at: '0000-12-31T23:56:00.000Z' }),
    );
  });
});

describe('retention: LOCATION_HISTORY_MONTHS', () => {
  it('drops scans older than the months kept and keeps the current location', async () => {
    await scan({ records: [{ cargo_no: 'BOX-H301', location_code: 'OLD-1', scanned_at: monthsAgo(30) }] });
    await scan({
      records: [
        { cargo_no: 'BOX-H302', location_code: 'OLD-2', scanned_at: monthsAgo(30) },
        { cargo_no: 'BOX-H302', location_code: 'NEW-2', scanned_at: minutesAgo(1) },
      ],
    });
    expect((await where('BOX-H301')).history).toHaveLength(1);
    const done = await maintainLocationHistory(service.stack.db, { monthsKept: 25 });
    expect(done.emptied).toEqual(['location_record_before']);
    const kept = await where('BOX-H301');
    expect(kept.current.location_code).toBe('OLD-1');
    expect(kept.history).toEqual([]);
    expect((await where('BOX-H302')).history.map((h) => h.location_code)).toEqual(['NEW-2']);
  });

  it('drops a whole month once all of it is older than the months kept', async () => {
    await historySince(3);
    const threeMonthsAgo = monthsAgo(3);
    await scan({
      records: [
        { cargo_no: 'BOX-H303', location_code: 'MONTH-3', scanned_at: threeMonthsAgo },
        { cargo_no: 'BOX-H303', location_code: 'NOW-3' },
      ],
    });
    const done = await maintainLocationHistory(service.stack.db, { monthsKept: 1 });
    expect(done.dropped).toContain(partitionOf(threeMonthsAgo));
    expect(done.dropped).toContain('location_record_before');
    expect(await lateScansByCargo()).toBe(true);
    expect((await where('BOX-H303')).history.map((h) => h.location_code)).toEqual(['NOW-3']);
    // A late scan of a dropped month is still stored, and goes at the next run.
    expect(
      (await scan({ records: [{ cargo_no: 'BOX-H304', location_code: 'LATE-4', scanned_at: threeMonthsAgo }] })).status,
    ).toBe(201);
    expect((await where('BOX-H304')).history.map((h) => h.location_code)).toEqual(['LATE-4']);
    expect((await maintainLocationHistory(service.stack.db, { monthsKept: 1 })).emptied).toEqual([
      'location_record_before',
    ]);
    expect((await where('BOX-H304')).current.location_code).toBe('LATE-4');
    expect((await where('BOX-H304')).history).toEqual([]);
  });

  it("takes a month out of the history at once and removes its table at the next run, with the history's partitions left alone", async () => {
    await historySince(4);
    const fourMonthsAgo = monthsAgo(4);
    const month = partitionOf(fourMonthsAgo);
    await scan({
      records: [
        { cargo_no: 'BOX-H305', location_code: 'MONTH-4', scanned_at: fourMonthsAgo },
        { cargo_no: 'BOX-H305', location_code: 'NOW-5' },
      ],
    });
    const retired = await maintainLocationHistory(service.stack.db, { monthsKept: 2 });
    expect(retired.dropped).toContain(month);
    expect(retired.removed).toEqual([]);
    expect((await where('BOX-H305')).history.map((h) => h.location_code)).toEqual(['NOW-5']);
    // What the next run drops is no partition any more: dropping it locks no table a scan or a read uses.
    const partitions = await service.stack.db.query<{ name: string }>(
      "SELECT c.relname::text AS name FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid WHERE i.inhparent = 'cargo.location_record'::regclass",
    );
    expect(partitions.rows.map((r) => r.name)).not.toContain(`${month}_retired`);
    const next = await maintainLocationHistory(service.stack.db, { monthsKept: 2 });
    expect(next.removed).toContain(`${month}_retired`);
    expect(next.removed).toEqual(
      retired.dropped.filter((name) => name !== 'location_record_before').map((name) => `${name}_retired`),
    );
    expect(next.dropped).toEqual([]);
    const left = await service.stack.db.query<{ table: string | null }>(
      `SELECT to_regclass('cargo.${month}_retired')::text AS table`,
    );
    expect(left.rows).toEqual([{ table: null }]);
    expect((await maintainLocationHistory(service.stack.db, { monthsKept: 2 })).removed).toEqual([]);
  });

  it('refuses a retention of less than one month', async () => {
    await expect(maintainLocationHistory(service.stack.db, { monthsKept: 0 })).rejects.toThrow();
  });
});

describe('the span a history page walks (migration 024)', () => {
  const voidScan = (cargoNo: string, id: string) =>
    service.call('DELETE', `${LOCATION}/${cargoNo}/records/${id}`, {
      body: { version: 1 },
      token: service.tokens.supervisor,
    });
  const history = async (cargoNo: string) =>
    (await where(cargoNo)).history.map((h: { location_code: string; version?: number }) => [
      h.location_code,
      h.version,
    ]);

  it('keeps the voided scans of a cargo whose every scan was voided in its history, also once it is scanned again', async () => {
    const stored = await scan({
      records: [
        { cargo_no: 'BOX-H501', location_code: 'A-01', scanned_at: monthsAgo(6, 10) },
        { cargo_no: 'BOX-H501', location_code: 'A-02', scanned_at: monthsAgo(6, 12) },
      ],
    });
    expect(stored.status).toBe(201);
    const [first, second] = stored.body.records as { id: string }[];
    expect((await voidScan('BOX-H501', second!.id)).status).toBe(200);
    expect((await voidScan('BOX-H501', first!.id)).status).toBe(200);
    const forgotten = await service.call('GET', `${LOCATION}/BOX-H501`);
    expect(forgotten.status).toBe(200);
    expect(forgotten.body.current).toBeNull();
    expect(await history('BOX-H501')).toEqual([
      ['A-02', 2],
      ['A-01', 2],
    ]);
    const again = await scan({ cargo_no: 'BOX-H501', location_code: 'B-01' });
    expect(again.status).toBe(201);
    expect(await history('BOX-H501')).toEqual([
      ['B-01', 1],
      ['A-02', 2],
      ['A-01', 2],
    ]);
    // Forgotten a second time, and scanned once more: every voided scan is still read.
    expect((await voidScan('BOX-H501', again.body.records[0].id)).status).toBe(200);
    expect((await scan({ cargo_no: 'BOX-H501', location_code: 'B-02' })).status).toBe(201);
    expect(await history('BOX-H501')).toEqual([
      ['B-02', 1],
      ['B-01', 2],
      ['A-02', 2],
      ['A-01', 2],
    ]);
  });

  it('reads a late scan older than every other scan of the cargo, uploaded after them', async () => {
    expect((await scan({ cargo_no: 'BOX-H502', location_code: 'C-02', scanned_at: minutesAgo(5) })).status).toBe(201);
    expect((await scan({ cargo_no: 'BOX-H502', location_code: 'C-01', scanned_at: monthsAgo(5) })).status).toBe(201);
    expect((await where('BOX-H502')).current.location_code).toBe('C-02');
    expect(await history('BOX-H502')).toEqual([
      ['C-02', 1],
      ['C-01', 1],
    ]);
    // A late scan newer than the current location's, of a backlog that holds an older one too.
    expect(
      (
        await scan({
          records: [
            { cargo_no: 'BOX-H502', location_code: 'C-00', scanned_at: monthsAgo(7) },
            { cargo_no: 'BOX-H502', location_code: 'C-03', scanned_at: minutesAgo(1) },
          ],
        })
      ).status,
    ).toBe(201);
    expect(await history('BOX-H502')).toEqual([
      ['C-03', 1],
      ['C-02', 1],
      ['C-01', 1],
      ['C-00', 1],
    ]);
  });

  it('keeps a voided scan newer than the current location in the history', async () => {
    const stored = await scan({
      records: [
        { cargo_no: 'BOX-H503', location_code: 'D-01', scanned_at: monthsAgo(3) },
        { cargo_no: 'BOX-H503', location_code: 'D-02', scanned_at: minutesAgo(10) },
      ],
    });
    const [, newest] = stored.body.records as { id: string }[];
    expect((await voidScan('BOX-H503', newest!.id)).status).toBe(200);
    // A scan between the two: current, newer than D-01, older than the voided D-02.
    expect((await scan({ cargo_no: 'BOX-H503', location_code: 'D-03', scanned_at: minutesAgo(20) })).status).toBe(201);
    expect((await where('BOX-H503')).current.location_code).toBe('D-03');
    expect(await history('BOX-H503')).toEqual([
      ['D-02', 2],
      ['D-03', 1],
      ['D-01', 1],
    ]);
  });

  it('reads the whole history of a cargo whose span is not known (kept before migration 024)', async () => {
    await scan({
      records: [
        { cargo_no: 'BOX-H504', location_code: 'E-01', scanned_at: monthsAgo(4) },
        { cargo_no: 'BOX-H504', location_code: 'E-02', scanned_at: minutesAgo(3) },
      ],
    });
    await service.stack.owner.query(
      "UPDATE cargo.location_current SET first_at = NULL, last_at = NULL WHERE cargo_no = 'BOX-H504'",
    );
    await service.stack.owner.query(
      "INSERT INTO cargo.location_record (cargo_no, location_code, scanned_at, occurred_at, recorded_by) VALUES ('BOX-H504', 'E-00', now(), now() - interval '5 months', 'alice')",
    );
    await scan({ cargo_no: 'BOX-H504', location_code: 'E-03' });
    expect(await history('BOX-H504')).toEqual([
      ['E-03', 1],
      ['E-02', 1],
      ['E-01', 1],
      ['E-00', 1],
    ]);
  });

  it('answers a cargo never scanned as not found, without reading its history', async () => {
    const res = await service.call('GET', `${LOCATION}/BOX-H599`);
    expect(res.status).toBe(404);
    expect(res.body.error_code).toBe('CARGO_NOT_FOUND');
  });
});
