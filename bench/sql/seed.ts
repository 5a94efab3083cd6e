import type pg from 'pg';
import { ROLE_NAMES } from '../../lib/db/roles.ts';
import { BEFORE_BY_CARGO_INDEX, TRAIL_FLOOR_SQL } from '../../lib/db/trail-week.ts';
import { TRANSFER_FROM, type Dataset } from './dataset.ts';

/** How many planned boxes the workload consumes, per kind, and how many items each plan has. */
export interface WorkPlans {
  readonly S: number;
  readonly Q: number;
  readonly K: number;
  readonly L: number;
  /** 500-item boxes the outbox comparison saves (half with the outbox, half without). */
  readonly O: number;
  readonly largeItems: number;
}

export interface SeedReport {
  readonly rows: Record<string, number>;
  readonly seconds: Record<string, number>;
}

const pad = (expr: string, width: number) => `lpad((${expr})::text, ${width}, '0')`;
const BOX = (i: string) => `'BX-' || ${pad(i, 7)}`;
const ZONGPAI = (z: string) => `'ZP-' || ${pad(z, 6)}`;
const ITEM = (i: string, k: string) => `'SKU-' || ${pad(`(${i} * 7 + ${k} * 131) % 5000`, 5)}`;
const QUANTITY = (i: string, k: string) => `(1 + (${i} + ${k}) % 24)`;
/** Register location n: the SQL twins of registerCode, registerKind and isRegisterBlocked in dataset.ts. */
const REGISTER_CODE = (n: string) =>
  `chr(65 + ${n} % 25) || '-' || ${pad(`(${n} / 25) % 40`, 2)} || '-' || CASE WHEN ${n} / 1000 < 10 THEN '0' ELSE '' END || (${n} / 1000)`;
const REGISTER_KIND = (n: string) => `CASE ${n} % 25 WHEN 23 THEN 'DOCK' WHEN 24 THEN 'STAGING' ELSE 'SHELF' END`;

/**
 * A month partition for each month of the seeded 90 days before the oldest the layout has, and
 * `location_record_before` again before them, with its index by cargo, as the maintenance creates
 * them: as the owner, whose tables the service's users are granted; one statement on one line (the
 * seed splits a step at a semicolon and a newline).
 */
const HISTORY_MONTHS = [
  'DO $seed$',
  "DECLARE first_start timestamptz := date_trunc('month', now() - interval '90 days', 'UTC'); oldest timestamptz; m timestamptz;",
  `BEGIN SELECT f.floor INTO oldest FROM (${TRAIL_FLOOR_SQL}) f;`,
  'ALTER TABLE cargo.location_record DETACH PARTITION cargo.location_record_before;',
  'ALTER TABLE cargo.location_record_before RENAME TO location_record_before_old;',
  'm := first_start;',
  'WHILE m < oldest LOOP',
  "  EXECUTE format('CREATE TABLE cargo.%I PARTITION OF cargo.location_record FOR VALUES FROM (%L) TO (%L)',",
  "                 'location_record_p' || to_char(m AT TIME ZONE 'UTC', 'YYYYMM'), m, m + interval '1 month');",
  "  m := m + interval '1 month';",
  'END LOOP;',
  "EXECUTE format('CREATE TABLE cargo.location_record_before PARTITION OF cargo.location_record FOR VALUES FROM (MINVALUE) TO (%L)', LEAST(first_start, oldest));",
  'INSERT INTO cargo.location_record OVERRIDING SYSTEM VALUE SELECT * FROM cargo.location_record_before_old;',
  'DROP TABLE cargo.location_record_before_old;',
  `${BEFORE_BY_CARGO_INDEX};`,
  'END $seed$',
].join(' ');

/**
 * Set-based seed statements (generate_series, one INSERT ... SELECT per table), in the order
 * foreign keys need. The SQL twins of the formulas in dataset.ts.
 */
const statements = (d: Dataset, work: WorkPlans): [table: string, sql: string][] => {
  const z = `ceil(i / ${d.boxesPerZongpai}.0)::int`;
  const items = (i: string) =>
    `(SELECT jsonb_agg(jsonb_build_object('item_code', ${ITEM(i, 'k')}, 'quantity', ${QUANTITY(i, 'k')}) ORDER BY k) FROM generate_series(1, ${d.itemsPerBox}) k)`;
  const firstPlanned = d.boxes - d.planBoxes + 1;
  const workPlan = (kind: string, count: number, perBox: number) =>
    `SELECT 'WB-${kind}-' || ${pad('w', 6)}, 'SO-W${kind}-' || (w / 10), 'Bench Customer', 'SKU-' || ${pad('k', 5)}, 'Item ' || k, 1000, 'pcs'
     FROM generate_series(1, ${count}) w, generate_series(1, ${perBox}) k`;
  return [
    [
      'cargo.zongpai',
      `INSERT INTO cargo.zongpai (zongpai_no, status, created_at, created_by, closed_at, closed_by)
      SELECT ${ZONGPAI('z')}, CASE WHEN z % 10 = 0 THEN 'CLOSED' ELSE 'OPEN' END, now() - interval '90 days' + z * interval '1 minute', 'op' || z % 50,
             CASE WHEN z % 10 = 0 THEN now() - interval '1 day' END, CASE WHEN z % 10 = 0 THEN 'sup' || z % 5 END
      FROM generate_series(1, ${d.zongpai}) z;
      INSERT INTO cargo.zongpai (zongpai_no, status, created_at, created_by)
      SELECT 'ZT-' || ${pad('p', 6)}, 'OPEN', now() - interval '2 days', 'op' || p % 50
      FROM generate_series(1, ${d.transferPallets}) p`,
    ],
    [
      'cargo.location',
      `INSERT INTO cargo.location (location_code, kind, zone, description, blocked, version, registered_at, registered_by, changed_at, changed_by)
      SELECT ${REGISTER_CODE('n')}, ${REGISTER_KIND('n')}, chr(65 + n % 25), 'Aisle ' || chr(65 + n % 25) || ', bay ' || (n / 25) % 40 || ', level ' || n / 1000,
             n >= 2000 AND n % 50 = 0, CASE WHEN n % 10 = 0 THEN 2 ELSE 1 END /* registerVersion */, now() - interval '200 days', 'sup' || n % 5,
             now() - interval '200 days' + (n % 100) * interval '1 day', 'sup' || n % 5
      FROM generate_series(0, ${d.register - 1}) n`,
    ],
    [
      'cargo.box',
      `INSERT INTO cargo.box (box_no, status, zongpai_no, zongpai_since, version, total_quantity, saved_at, saved_by)
      SELECT ${BOX('i')}, CASE WHEN i % 50 = 0 THEN 'NOT_BOXED' ELSE 'BOXED' END,
             CASE WHEN i % 50 = 0 THEN NULL ELSE ${ZONGPAI(z)} END,
             CASE WHEN i % 50 = 0 THEN NULL ELSE now() - interval '90 days' + i * interval '30 seconds' END,
             CASE WHEN i % 5 = 0 THEN 2 ELSE 1 END,
             CASE WHEN i % 50 = 0 THEN 0 ELSE (SELECT sum(${QUANTITY('i', 'k')}) FROM generate_series(1, ${d.itemsPerBox}) k) END,
             now() - interval '90 days' + i * interval '30 seconds', 'op' || i % 50
      FROM generate_series(1, ${d.boxes}) i`,
    ],
    [
      'cargo.box_item',
      `INSERT INTO cargo.box_item (box_no, item_code, quantity)
      SELECT ${BOX('i')}, ${ITEM('i', 'k')}, ${QUANTITY('i', 'k')}
      FROM generate_series(1, ${d.boxes}) i, generate_series(1, ${d.itemsPerBox}) k WHERE i % 50 <> 0`,
    ],
    [
      'cargo.box_event',
      `INSERT INTO cargo.box_event (box_no, version, action, actor, at, zongpai_no, items)
      SELECT ${BOX('i')}, 1, 'SAVE', 'op' || i % 50, now() - interval '90 days' + i * interval '30 seconds', ${ZONGPAI(z)}, ${items('i')}
      FROM generate_series(1, ${d.boxes}) i
      UNION ALL
      SELECT ${BOX('i')}, 2, CASE WHEN i % 50 = 0 THEN 'UNDO' ELSE 'EDIT' END, 'sup' || i % 5, now() - interval '89 days' + i * interval '30 seconds',
             CASE WHEN i % 50 = 0 THEN NULL ELSE ${ZONGPAI(z)} END, CASE WHEN i % 50 = 0 THEN '[]'::jsonb ELSE ${items('i')} END
      FROM generate_series(5, ${d.boxes}, 5) i`,
    ],
    [
      'erp.demo_box_plan',
      `INSERT INTO erp.demo_box_plan (box_no, order_no, customer_name, item_code, item_name, planned_quantity, unit)
      SELECT ${BOX('i')}, 'SO-' || ${pad('i / 10', 7)}, 'Customer ' || i % 997, ${ITEM('i', 'k')}, 'Item ' || ${ITEM('i', 'k')}, ${QUANTITY('i', 'k')} + 2, 'pcs'
      FROM generate_series(${firstPlanned}, ${d.boxes + d.planBoxes}) i, generate_series(1, ${d.itemsPerBox}) k`,
    ],
    [
      'erp.demo_box_plan (workload boxes)',
      [
        workPlan('S', work.S, d.itemsPerBox),
        workPlan('Q', work.Q, d.itemsPerBox),
        workPlan('K', work.K, d.itemsPerBox),
        workPlan('L', work.L, work.largeItems),
        workPlan('O', work.O, work.largeItems),
      ]
        .map(
          (s) =>
            `INSERT INTO erp.demo_box_plan (box_no, order_no, customer_name, item_code, item_name, planned_quantity, unit) ${s}`,
        )
        .join(';\n'),
    ],
    // The history's months for the 90 days, as a warehouse running for that long has them (the
    // migrated layout starts at this month and keeps older scans in location_record_before).
    ['cargo.location_record months', `SET ROLE ${ROLE_NAMES.owner};\n${HISTORY_MONTHS};\nRESET ROLE`],
    [
      'cargo.location_record',
      `INSERT INTO cargo.location_record (cargo_no, location_code, off_shelf, scanned_at, recorded_at, occurred_at, recorded_by, device_id)
      SELECT CASE WHEN c % 10 = 0 THEN ${ZONGPAI(`((c / 10 - 1) % ${d.zongpai}) + 1`)} ELSE ${BOX('c')} END,
             'A-' || ${pad('r % 40', 2)} || '-' || ${pad('r % 12', 2)}, r % 7 = 0,
             CASE WHEN r % 10 = 0 THEN NULL ELSE at END, at + interval '2 seconds', at, 'op' || r % 50, 'PDA-' || ${pad('r % 30', 2)}
      FROM (SELECT r, 1 + (r::bigint * 7919) % ${d.cargo} AS c,
                   date_trunc('milliseconds', now() - interval '90 days' + r * (interval '90 days' / ${d.locations})) AS at
            FROM generate_series(1, ${d.locations}) r) s;
      INSERT INTO cargo.location_record (cargo_no, location_code, off_shelf, scanned_at, recorded_at, occurred_at, recorded_by, device_id)
      SELECT 'ZT-' || ${pad('p', 6)}, '${TRANSFER_FROM}', true, at, at + interval '2 seconds', at, 'op' || p % 50, 'PDA-01'
      FROM (SELECT p, date_trunc('milliseconds', now() - interval '1 day' + p * interval '1 minute') AS at
            FROM generate_series(1, ${d.transferPallets}) p) s`,
    ],
    // Each cargo's current location, as the scans' statements keep it (the newest record that is not
    // voided), with its span (migration 024: its oldest and newest record, voided ones included), so
    // that a history page walks only the weeks it has scans in, as at a warehouse running since 024.
    // The seed voids no record, so no cargo is forgotten (`cargo.location_forgotten` stays empty).
    [
      'cargo.location_current',
      `INSERT INTO cargo.location_current (cargo_no, record_id, location_code, off_shelf, scanned_at, recorded_at, occurred_at, recorded_by, device_id, first_at, last_at)
      SELECT DISTINCT ON (r.cargo_no) r.cargo_no, r.id, r.location_code, r.off_shelf, r.scanned_at, r.recorded_at, r.occurred_at, r.recorded_by, r.device_id,
             s.first_at, s.last_at
      FROM cargo.location_record r
      JOIN (SELECT a.cargo_no, min(a.occurred_at) AS first_at, max(a.occurred_at) AS last_at FROM cargo.location_record a GROUP BY a.cargo_no) s
        ON s.cargo_no = r.cargo_no
      WHERE r.voided_at IS NULL
      ORDER BY r.cargo_no, r.occurred_at DESC, r.id DESC`,
    ],
    // The outbox as a busy warehouse leaves it: one cargo.located event per seeded scan, numbered
    // from 1, and the counter at the last one (the workload's writes number theirs after it).
    [
      'cargo.event',
      [
        `INSERT INTO cargo.event (sequence, type, occurred_at, actor, data)
      SELECT r, 'cargo.located', now() - interval '7 days' + r * (interval '7 days' / ${d.events}), 'op' || r % 50,
             jsonb_build_object('id', r::text, 'cargo_no', ${BOX(`1 + (r::bigint * 7919) % ${d.cargo}`)}, 'location_code', 'A-' || ${pad('r % 40', 2)} || '-01',
                                'off_shelf', false, 'scanned_at', NULL, 'recorded_at', now(), 'recorded_by', 'op' || r % 50, 'device_id', 'PDA-01')
      FROM generate_series(1, ${d.events}) r`,
        `UPDATE cargo.event_sequence SET last = ${d.events}`,
      ].join(';\n'),
    ],
    [
      'cargo.idempotency_key',
      `INSERT INTO cargo.idempotency_key (caller, idem_key, route, request_hash, result, created_at, expires_at)
      SELECT 'op' || k % 50, md5(k::text), 'POST /v1/cargo/location', md5('h' || k), '[]'::json, now() - (k % 1440) * interval '1 minute',
             now() - (k % 1440) * interval '1 minute' + interval '24 hours'
      FROM generate_series(1, ${d.idempotencyKeys}) k`,
    ],
  ];
};

const countOf = async (client: pg.Client, table: string): Promise<number> =>
  Number((await client.query<{ n: string }>(`SELECT count(*) AS n FROM ${table}`)).rows[0]?.n ?? 0);

/**
 * Fills the migrated database through a direct connection with set-based SQL, then VACUUM
 * ANALYZE (the statistics and visibility map a database in steady state has) and a CHECKPOINT.
 *
 * @example
 * ```ts
 * const report = await seed(client, dataset(settings), { S: 310, Q: 310, K: 310, L: 60, O: 120, largeItems: 500 });
 * ```
 */
export const seed = async (
  client: pg.Client,
  d: Dataset,
  work: WorkPlans,
  log: (line: string) => void,
): Promise<SeedReport> => {
  const seconds: Record<string, number> = {};
  await client.query('SET synchronous_commit = off');
  for (const [table, sql] of statements(d, work)) {
    const started = performance.now();
    for (const statement of sql.split(';\n')) await client.query(statement);
    seconds[table] = (performance.now() - started) / 1000;
    log(`  ${table}: ${seconds[table].toFixed(1)} s`);
  }
  await client.query('RESET synchronous_commit');
  const started = performance.now();
  // Every table, the one-row counters too: without statistics the planner takes `cargo.event_sequence`
  // for 2 200 rows, and an outbox of 50 events for 110 000, which puts the statement over jit_above_cost.
  await client.query('VACUUM (ANALYZE)');
  seconds['VACUUM ANALYZE'] = (performance.now() - started) / 1000;
  log(`  VACUUM ANALYZE: ${seconds['VACUUM ANALYZE'].toFixed(1)} s`);
  // The bulk load leaves about a gigabyte of WAL behind; without a checkpoint now, the one it
  // triggers would flush it in the middle of the measured requests.
  const checkpointStarted = performance.now();
  await client.query('CHECKPOINT');
  seconds.CHECKPOINT = (performance.now() - checkpointStarted) / 1000;
  const rows: Record<string, number> = {};
  for (const table of [
    'cargo.location_record',
    'cargo.zongpai',
    'cargo.box',
    'cargo.box_item',
    'cargo.box_event',
    'erp.demo_box_plan',
    'cargo.idempotency_key',
    'cargo.event',
    'cargo.location_current',
    'cargo.location',
  ]) {
    rows[table] = await countOf(client, table);
  }
  rows['distinct cargo_no in location_record'] = Number(
    (await client.query<{ n: string }>('SELECT count(DISTINCT cargo_no) AS n FROM cargo.location_record')).rows[0]?.n ??
      0,
  );
  return { rows, seconds };
};
