import type pg from 'pg';
import { compileWrite } from '../../lib/db/write.ts';
import { RECORD } from '../../lib/location/locations.ts';
import { positional } from './positional.ts';
import { RECORD_BY_CARGO } from './trail-by-cargo.ts';
import { random } from './workload.ts';
import { cargoOf, locationOf, type Shape } from './year-seed.ts';
import { log } from './year-settings.ts';

/** How long before the seeded year's end the boxes scanned long ago were scanned: about six months. */
export const LONG_AGO_DAYS = 182;

/** Each such box's scans, in hours after its first: three, over two and a half days. */
const SCAN_HOURS = [0, 26, 60];

/** Their first scans spread over this many days, ending LONG_AGO_DAYS before the year's end. */
const SPREAD_DAYS = 14;

/**
 * How the boxes' scans are stored: the service's record statement (`record`, which keeps the
 * cargo's span from migration 024 on), or its form with the trail keyed by cargo (`by cargo`, no
 * span: the schema before 022 has none).
 */
export type StoredBy = 'record' | 'by cargo';

const RECORDED_BY: Readonly<Record<StoredBy, { sql: () => string; what: string }>> = {
  record: { sql: () => compileWrite(RECORD).plain, what: "the service's record statement" },
  'by cargo': { sql: () => compileWrite(RECORD_BY_CARGO).plain, what: 'the record statement before 024' },
};

/**
 * `count` boxes scanned 3 times over two and a half days about six months before `now` and never
 * after, as most boxes of a warehouse are once shipped: the seeded year scans every box about 100
 * times, so it has none. Each is named after a seeded box (its number and `-L<stream>`, `stream`
 * the records stored since the seed, another in each phase and run), so that its trail entries lie beside that box's in the index, and every
 * box another seeded box's: no two samples read the same index pages for them. Stored as a
 * warehouse stores scans, every box's first scan in one request, then every box's second, each
 * request of 500 scans at most; then the history's partitions that took them vacuumed, as
 * six-month-old months are (all visible: the history page reads the trail index alone).
 *
 * The pages the requests wrote are then in shared_buffers, where a warehouse's would have left it
 * months ago, and the samples would find them there: those partitions' trail index is built again
 * and the current locations rewritten (VACUUM FULL), both written past shared_buffers, so the
 * samples read them as they read any other box's. What stays is the heap the requests wrote, which
 * the history page does not read.
 *
 * Answers the boxes' numbers, in the order the samples are to read them.
 */
export const longAgoBoxes = async (
  client: pg.Client,
  d: Shape,
  { count, stream, nowMs, storedBy }: { count: number; stream: number; nowMs: number; storedBy: StoredBy },
): Promise<string[]> => {
  const t = performance.now();
  const rnd = random(13 + stream);
  const picked = new Set<number>();
  while (picked.size < Math.min(count, d.boxes)) picked.add(rnd.int(1, d.boxes));
  const boxes = [...picked].map((b) => `${cargoOf(b, d)}-L${stream}`);
  const first = nowMs - (LONG_AGO_DAYS + SPREAD_DAYS) * 86_400_000;
  const sql = RECORDED_BY[storedBy].sql();
  const ids: string[] = [];
  for (const [k, hours] of SCAN_HOURS.entries())
    for (let from = 0; from < boxes.length; from += 500) {
      const scans = boxes.slice(from, from + 500).map((cargo, j) => ({
        cargo_no: cargo,
        location_code: locationOf((from + j) * SCAN_HOURS.length + k, d),
        off_shelf: false,
        scanned_at: new Date(
          first + ((from + j) * SPREAD_DAYS * 86_400_000) / boxes.length + hours * 3_600_000,
        ).toISOString(),
        device_id: 'PDA-07',
      }));
      const { text, values } = positional(sql, { scans: JSON.stringify(scans), recorded_by: 'bench' });
      const { rows } = await client.query<{ id: string }>(text, values);
      ids.push(...rows.map((r) => r.id));
    }
  const { rows: parts } = await client.query<{ part: string; trail: string }>(
    `SELECT p.oid::regclass::text AS part, x.indexrelid::regclass::text AS trail
     FROM pg_class p
     JOIN pg_index x ON x.indrelid = p.oid
     JOIN pg_inherits h ON h.inhrelid = x.indexrelid AND h.inhparent = 'cargo.location_record_trail_idx'::regclass
     WHERE p.oid IN (SELECT DISTINCT tableoid FROM cargo.location_record WHERE id = ANY($1::bigint[]))`,
    [ids],
  );
  for (const { part, trail } of parts) {
    await client.query(`VACUUM ${part}`);
    await client.query(`REINDEX INDEX ${trail}`);
  }
  await client.query('VACUUM (FULL, ANALYZE) cargo.location_current');
  log(
    `  ${boxes.length} boxes scanned ${SCAN_HOURS.length} times ${LONG_AGO_DAYS}-${LONG_AGO_DAYS + SPREAD_DAYS} days ago (${ids.length} records, through ${RECORDED_BY[storedBy].what}) in ${((performance.now() - t) / 1000).toFixed(1)} s, into ${parts.map((p) => p.part).join(', ')}, their trail index built again`,
  );
  return boxes;
};
