import type pg from 'pg';
import { loadConfig } from '../../lib/config.ts';
import { TRAIL_INDEX_BYTE_ORDER } from '../../lib/db/migrations/017-history-codes-byte-order.ts';
import { locatedData } from '../../lib/location/locations.ts';
import { log, type Design } from './year-settings.ts';

const pad = (expr: string, width: number) => `lpad((${expr})::text, ${width}, '0')`;

/** The inverse of 7919 modulo n (the scatter of records over cargo is r * 7919 mod n). */
const inverse = (a: number, n: number): number => {
  let [t, nt, r, nr] = [0n, 1n, BigInt(n), BigInt(a % n)];
  while (nr !== 0n) {
    const q = r / nr;
    [t, nt] = [nt, t - q * nt];
    [r, nr] = [nr, r - q * nr];
  }
  if (r !== 1n) throw new Error(`7919 and ${n} are not coprime: choose another box count`);
  return Number(t < 0n ? t + BigInt(n) : t);
};

/** What a seeded year holds: its boxes, zongpais, cargo (both), records and locations. */
export interface Shape {
  boxes: number;
  zongpai: number;
  cargo: number;
  records: number;
  locations: number;
}

/** Cargo c (1-based): boxes first, then zongpais. SQL and TypeScript twins. */
const cargoSql = (c: string, d: Shape) =>
  `CASE WHEN ${c} <= ${d.boxes} THEN 'BX-' || ${pad(c, 7)} ELSE 'ZP-' || ${pad(`${c} - ${d.boxes}`, 6)} END`;
export const cargoOf = (c: number, d: Shape) =>
  c <= d.boxes ? `BX-${String(c).padStart(7, '0')}` : `ZP-${String(c - d.boxes).padStart(6, '0')}`;
const locationSql = (r: string, d: Shape) => `'L-' || ${pad(`(${r} * 31) % ${d.locations}`, 4)}`;
export const locationOf = (i: number, d: Shape) => `L-${String(i % d.locations).padStart(4, '0')}`;

/**
 * When a seeded year's records were scanned: records 1..`older` evenly over [`start`, `split`),
 * the rest evenly over [`split`, `end`) (a month at a large warehouse's rate, see
 * BENCH_YEAR_MONTH_RATE), in the order of their ids.
 */
export interface Timeline {
  readonly start: string;
  readonly split: string;
  readonly end: string;
  readonly older: number;
}

/**
 * The timeline of a year of `records` ending at `end`: with `monthRate`, the month of `end` holds
 * that many records a day up to `end`, and the year before it the others.
 */
export const timeline = (records: number, endIso: string, monthRate?: number): Timeline => {
  const end = Date.parse(endIso);
  const start = new Date(end - 365 * 86_400_000 - 60_000).toISOString();
  if (monthRate === undefined) return { start, split: endIso, end: endIso, older: records };
  const monthStart = new Date(endIso);
  monthStart.setUTCDate(1);
  monthStart.setUTCHours(0, 0, 0, 0);
  const recent = Math.min(records - 1, Math.round((monthRate * (end - monthStart.getTime())) / 86_400_000));
  return { start, split: monthStart.toISOString(), end: endIso, older: records - recent };
};

/** Record r (1..records): cargo 1 + r * 7919 mod cargo, at its time of the timeline ($1 start, $2 split, $3 end). */
const recordsSql = (d: Shape, t: Timeline, from: number, to: number) => `
INSERT INTO cargo.location_record (id, cargo_no, location_code, off_shelf, scanned_at, recorded_at, occurred_at, recorded_by, device_id)
OVERRIDING SYSTEM VALUE
SELECT r, ${cargoSql('c', d)}, ${locationSql('r', d)}, r % 7 = 0, CASE WHEN r % 10 = 0 THEN NULL ELSE at END, at + interval '2 seconds', at,
       'op' || r % 150, 'PDA-' || ${pad('r % 50', 2)}
FROM (SELECT r, 1 + (r * 7919) % ${d.cargo} AS c,
             date_trunc('milliseconds', CASE WHEN r <= ${t.older} THEN $1::timestamptz + r * (($2::timestamptz - $1::timestamptz) / ${t.older})
                                             ELSE $2::timestamptz + (r - ${t.older}) * (($3::timestamptz - $2::timestamptz) / ${Math.max(1, d.records - t.older)}) END) AS at
      FROM generate_series(${from}::bigint, ${to}::bigint) r) s`;

/** Each cargo's last record, computed (the records of cargo c are r0(c) + k * cargo), not searched. */
const currentSql = (d: Shape) => {
  const inv = inverse(7919, d.cargo);
  return `
INSERT INTO cargo.location_current (cargo_no, record_id, location_code, off_shelf, scanned_at, recorded_at, occurred_at, recorded_by, device_id)
SELECT cargo_no, id, location_code, off_shelf, scanned_at, recorded_at, occurred_at, recorded_by, device_id
FROM (SELECT c, CASE WHEN r0 = 0 THEN ${d.cargo}::bigint * (${d.records} / ${d.cargo}) ELSE r0 + ${d.cargo}::bigint * ((${d.records} - r0) / ${d.cargo}) END AS last
      FROM (SELECT c, ((c - 1) * ${inv}::bigint) % ${d.cargo} AS r0 FROM generate_series(1, ${d.cargo}) c) x) l
JOIN cargo.location_record r ON r.id = l.last AND r.cargo_no = ${cargoSql('l.c', d)}`;
};

/**
 * The event outbox as the relay leaves it: the `cargo.located` event of every record of the last
 * EVENTS_RETENTION_DAYS (its default), all published, the older ones pruned. A backlog's 500
 * events then go into a table and index of a week of a large warehouse's scans (about 1.9 M
 * events at 100 M records a year), not into an empty one.
 */
const EVENTS_KEPT_DAYS = loadConfig({}).eventsRetentionDays;
const eventsSql = `
INSERT INTO cargo.event (sequence, type, occurred_at, actor, data)
SELECT row_number() OVER (ORDER BY i.id), 'cargo.located', i.recorded_at, i.recorded_by, ${locatedData()}
FROM cargo.location_record i
WHERE i.occurred_at >= $1::timestamptz - make_interval(days => ${EVENTS_KEPT_DAYS})`;

export const seed = async (
  client: pg.Client,
  design: Design,
  d: Shape,
  t: Timeline,
): Promise<Record<string, number>> => {
  const seconds: Record<string, number> = {};
  const timed = async (name: string, work: () => Promise<unknown>) => {
    const t = performance.now();
    await work();
    seconds[name] = Number(((performance.now() - t) / 1000).toFixed(1));
    log(`  ${design} ${name}: ${seconds[name]} s`);
  };
  await client.query('SET synchronous_commit = off');
  await timed('zongpai + box', async () => {
    await client.query(
      `INSERT INTO cargo.zongpai (zongpai_no, status, created_at, created_by)
      SELECT 'ZP-' || ${pad('z', 6)}, 'OPEN', $1::timestamptz, 'op' FROM generate_series(1, ${d.zongpai}) z`,
      [t.start],
    );
    await client.query(
      `INSERT INTO cargo.box (box_no, status, zongpai_no, zongpai_since, version, total_quantity, saved_at, saved_by)
      SELECT 'BX-' || ${pad('i', 7)}, 'BOXED', 'ZP-' || ${pad('ceil(i / 20.0)::int', 6)}, $1::timestamptz, 1, 5, $1::timestamptz, 'op'
      FROM generate_series(1, ${d.boxes}) i`,
      [t.start],
    );
  });
  // Bulk load without the indexes, then build them: what a steady state has, in a fraction of the time.
  await client.query('ALTER TABLE cargo.location_record DROP CONSTRAINT location_record_pkey');
  // The history index: the trail index of migration 017 (008's, comparing codes in "C"), or the key-only one of the design before it.
  const history =
    design === 'partitioned'
      ? { name: 'location_record_trail_idx', create: TRAIL_INDEX_BYTE_ORDER }
      : {
          name: 'location_record_cargo_idx',
          create: 'CREATE INDEX location_record_cargo_idx ON cargo.location_record (cargo_no, occurred_at, id)',
        };
  await client.query(`DROP INDEX cargo.${history.name}`);
  const chunk = Math.ceil(d.records / 12);
  await timed('location_record', async () => {
    for (let from = 1; from <= d.records; from += chunk) {
      await client.query(recordsSql(d, t, from, Math.min(d.records, from + chunk - 1)), [t.start, t.split, t.end]);
      log(`    ${Math.min(d.records, from + chunk - 1)} of ${d.records}`);
    }
  });
  await timed('primary key', () =>
    client.query(
      `ALTER TABLE cargo.location_record ADD CONSTRAINT location_record_pkey PRIMARY KEY (${design === 'partitioned' ? 'id, occurred_at' : 'id'})`,
    ),
  );
  await timed(history.name, () => client.query(history.create));
  await client.query(`SELECT setval(pg_get_serial_sequence('cargo.location_record', 'id'), ${d.records})`);
  if (design === 'partitioned') {
    await timed('location_current', () => client.query(currentSql(d)));
    await timed(`event outbox (${EVENTS_KEPT_DAYS} days)`, async () => {
      const { rowCount } = await client.query(eventsSql, [t.end]);
      await client.query('UPDATE cargo.event_sequence SET last = $1', [rowCount]);
      await client.query('UPDATE cargo.event_relay SET last_published = $1', [rowCount]);
    });
  }
  await client.query('RESET synchronous_commit');
  await timed('VACUUM ANALYZE', () => client.query('VACUUM (ANALYZE)'));
  await timed('CHECKPOINT', () => client.query('CHECKPOINT'));
  return seconds;
};

/**
 * Each cargo's span (migration 024: the `occurred_at` of its oldest and newest record, voided ones
 * included) as the record statement keeps it from 024 on, filled from the history: the seed writes
 * the current locations itself, before the columns exist, and without a span a history page walks
 * every week of the history. One pass over the history (a hash aggregate of every record by cargo);
 * the cargo with records and no current location (every scan voided) get theirs in
 * `cargo.location_forgotten`. Then the current locations rewritten (VACUUM FULL), as compact as the
 * seed made them, so that both trail designs are measured on a table of the same size.
 */
const SPANS_SQL = `
WITH span AS MATERIALIZED (
  SELECT r.cargo_no, min(r.occurred_at) AS first_at, max(r.occurred_at) AS last_at
  FROM cargo.location_record r
  GROUP BY r.cargo_no
),
kept AS (
  UPDATE cargo.location_current c SET first_at = s.first_at, last_at = s.last_at
  FROM span s WHERE s.cargo_no = c.cargo_no
  RETURNING 1
),
forgotten AS (
  INSERT INTO cargo.location_forgotten (cargo_no, first_at, last_at)
  SELECT s.cargo_no, s.first_at, s.last_at FROM span s
  WHERE NOT EXISTS (SELECT 1 FROM cargo.location_current c WHERE c.cargo_no = s.cargo_no)
  ON CONFLICT (cargo_no) DO UPDATE SET first_at = EXCLUDED.first_at, last_at = EXCLUDED.last_at
  RETURNING 1
)
SELECT (SELECT count(*) FROM kept)::text AS current, (SELECT count(*) FROM forgotten)::text AS forgotten`;

/** Fills every cargo's span ({@link SPANS_SQL}); answers the seconds it took, as the seed's other steps. */
export const fillSpans = async (client: pg.Client): Promise<number> => {
  const t = performance.now();
  await client.query('SET synchronous_commit = off');
  const { rows } = await client.query<{ current: string; forgotten: string }>(SPANS_SQL);
  const filled = (performance.now() - t) / 1000;
  await client.query('RESET synchronous_commit');
  await client.query('VACUUM (FULL, ANALYZE) cargo.location_current');
  await client.query('ANALYZE cargo.location_forgotten');
  const seconds = (performance.now() - t) / 1000;
  log(
    `  cargo spans (first_at, last_at) from the history, as the record statement keeps them since 024: ${rows[0]?.current} current locations, ${rows[0]?.forgotten} forgotten, in ${filled.toFixed(1)} s, ${seconds.toFixed(1)} s with the table rewritten`,
  );
  return Number(seconds.toFixed(1));
};

/** A relation's size on disk, summed over its partitions when it has any. */
const TREE_SIZE = (relation: string, size: string) =>
  `pg_size_pretty(COALESCE((SELECT sum(${size}(relid)) FROM pg_partition_tree(${relation}) WHERE ${relation} IS NOT NULL), ${size}(${relation})))`;

export const sizes = async (client: pg.Client): Promise<Record<string, string>> => {
  const history = "to_regclass('cargo.location_record')";
  const index =
    "COALESCE(to_regclass('cargo.location_record_trail_idx'), to_regclass('cargo.location_record_cargo_idx'))";
  const { rows } = await client.query<{ name: string; size: string }>(
    `SELECT 'database' AS name, pg_size_pretty(pg_database_size(current_database())) AS size
     UNION ALL SELECT 'location_record (all partitions, with indexes)', ${TREE_SIZE(history, 'pg_total_relation_size')}
     UNION ALL SELECT 'history index (all partitions)', ${TREE_SIZE(index, 'pg_relation_size')}
     UNION ALL SELECT 'location_current (with indexes)', pg_size_pretty(pg_total_relation_size(to_regclass('cargo.location_current')))
     UNION ALL SELECT 'event outbox (with indexes)', pg_size_pretty(pg_total_relation_size(to_regclass('cargo.event')))`,
  );
  return Object.fromEntries(rows.map((r) => [r.name, r.size ?? '-']));
};
