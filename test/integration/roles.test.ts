import { randomBytes, randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureDemoErp } from '../../local/demo-erp.ts';
import { createPostgresBackend } from '../../local/data-api/postgres-backend.ts';
import type { DataApiDb } from '../../lib/db/data-api.ts';
import { grantErpViewTo } from '../../lib/db/grants.ts';
import { ensureRoles, type RoleNames, type ServiceRoles } from '../../lib/db/roles.ts';
import { setUpSchema } from '../../lib/db/setup.ts';
import { sweepExpiredKeys } from '../../lib/db/sweep.ts';
import { markPublished, measureAndRelease, prunePublished, readPending } from '../../lib/events/outbox.ts';
import { maintainLocationHistory } from '../../lib/location/history.ts';
import { dataApiSession, type DataApiSession } from '../support/data-api-session.ts';
import { throwawayDatabase } from '../support/throwaway-database.ts';

/**
 * Least privilege in the database, as the migration function sets it up on AWS: the master
 * creates an owner, a service, a reader and a maintenance role, the owner migrates, the service
 * role may only read and write what requests change, the reader only read, the maintenance role
 * only what the scheduled tasks do. PostgreSQL only: these are login roles with passwords (the
 * local runtime's own users, without login, are exercised by every integration test).
 */
const onPostgres = process.env.TEST_BACKEND === 'postgres';
const suffix = randomBytes(4).toString('hex');
const roles: ServiceRoles = {
  owner: { username: `cargo_owner_${suffix}`, password: randomBytes(24).toString('hex') },
  service: { username: `cargo_service_${suffix}`, password: randomBytes(24).toString('hex') },
  reader: { username: `cargo_reader_${suffix}`, password: randomBytes(24).toString('hex') },
  maintenance: { username: `cargo_maintenance_${suffix}`, password: randomBytes(24).toString('hex') },
};
const names: RoleNames = {
  owner: roles.owner.username,
  service: roles.service.username,
  reader: roles.reader.username,
  maintenance: roles.maintenance.username,
};

const sessions: DataApiSession[] = [];
let drop: () => Promise<void> = async () => undefined;
let master: DataApiDb;
let owner: DataApiDb;
let service: DataApiDb;
let reader: DataApiDb;
let maintenance: DataApiDb;

/** A Data API adapter signed in as `user` (the emulator's connection; trust auth locally). */
const signIn = async (url: string, user?: string): Promise<DataApiDb> => {
  const target = new URL(url);
  if (user !== undefined) target.username = user;
  const session = await dataApiSession(
    await createPostgresBackend({ connectionString: target.toString() }),
    user ?? 'master',
  );
  sessions.push(session);
  return session.db;
};

beforeAll(async () => {
  if (!onPostgres) return;
  const database = await throwawayDatabase();
  drop = database.drop;
  master = await signIn(database.url);
  await ensureRoles(master, roles);
  owner = await signIn(database.url, roles.owner.username);
  service = await signIn(database.url, roles.service.username);
  reader = await signIn(database.url, roles.reader.username);
  maintenance = await signIn(database.url, roles.maintenance.username);
  await ensureDemoErp(master, 'erp.v_box_info');
  await setUpSchema({ master, owner, names, erpBoxView: 'erp.v_box_info' });
});

afterAll(async () => {
  for (const session of sessions) await session.close();
  await drop();
  if (!onPostgres) return;
  const admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
  await admin.connect();
  for (const name of [names.maintenance, names.reader, names.service, names.owner]) {
    await admin.query(`DROP OWNED BY ${name}`).catch(() => undefined);
    await admin.query(`DROP ROLE IF EXISTS ${name}`);
  }
  await admin.end();
});

const sqlState = async (work: Promise<unknown>): Promise<string | undefined> =>
  work.then(
    () => undefined,
    (error: { sqlState?: string }) => error.sqlState,
  );

describe.runIf(onPostgres)('database users of the service', () => {
  it('gives every table and view of the cargo schema to the migration owner, the read-contract view included', async () => {
    const { rows } = await master.query<{ owner: string }>(
      "SELECT DISTINCT pg_get_userbyid(c.relowner)::text AS owner FROM pg_class c WHERE c.relnamespace = 'cargo'::regnamespace AND c.relkind IN ('r', 'p', 'v')",
    );
    expect(rows).toEqual([{ owner: roles.owner.username }]);
    const view = await master.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM pg_views WHERE schemaname = 'cargo' AND viewname = 'box_content'",
    );
    expect(view.rows[0]?.n).toBe(1);
  });

  it('lets the service user read the ERP view and read and write its schema', async () => {
    const plan = await service.query<{ n: number }>('SELECT count(*)::int AS n FROM erp.v_box_info');
    expect(plan.rows[0]?.n).toBeGreaterThan(0);
    await service.query(
      "INSERT INTO cargo.location_record (cargo_no, location_code, off_shelf, occurred_at, recorded_by) VALUES ('BOX-1001', 'A-01', false, now(), 'olga')",
    );
    const read = await service.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM cargo.location_record WHERE cargo_no = 'BOX-1001'",
    );
    expect(read.rows[0]?.n).toBe(1);
  });

  it('refuses the service user any schema change and the ERP demo tables with insufficient privilege (42501)', async () => {
    expect(await sqlState(service.query('CREATE TABLE cargo.intruder (a int)'))).toBe('42501');
    expect(await sqlState(service.query('DROP TABLE cargo.schema_migration'))).toBe('42501');
    expect(await sqlState(service.query('ALTER TABLE cargo.location_record ADD COLUMN x int'))).toBe('42501');
    expect(await sqlState(service.query('DELETE FROM erp.demo_box_plan'))).toBe('42501');
  });

  it('refuses the service user to rewrite the audit trail, delete scans or touch the migrations ledger (42501)', async () => {
    for (const statement of [
      'DELETE FROM cargo.box_event',
      "UPDATE cargo.box_event SET actor = 'mallory'",
      'DELETE FROM cargo.location_record',
      // A scan is only ever marked voided: where, when and by whom it was scanned stay as recorded.
      "UPDATE cargo.location_record SET location_code = 'ELSEWHERE'",
      "UPDATE cargo.location_record SET cargo_no = 'BOX-OTHER', recorded_by = 'mallory'",
      'UPDATE cargo.location_record SET occurred_at = now()',
      'DELETE FROM cargo.zongpai',
      'DELETE FROM cargo.zongpai_reopening',
      'DELETE FROM cargo.schema_migration',
      "INSERT INTO cargo.schema_migration (id, name) VALUES (999, 'intruder')",
      'TRUNCATE cargo.event',
    ])
      expect(await sqlState(service.query(statement)), statement).toBe('42501');
  });

  it('refuses the service user to set the event sequence back, which later events would collide on (23514)', async () => {
    const before = await owner.query<{ last: string }>(
      'UPDATE cargo.event_sequence SET last = last + 5 RETURNING last::text',
    );
    expect(await sqlState(service.query('UPDATE cargo.event_sequence SET last = last - 1'))).toBe('23514');
    expect(await sqlState(service.query('UPDATE cargo.event_sequence SET last = 0'))).toBe('23514');
    expect((await owner.query<{ last: string }>('SELECT last::text FROM cargo.event_sequence')).rows).toEqual(
      before.rows,
    );
  });

  it('takes back a write privilege an earlier deployment granted beyond what the service user needs', async () => {
    await owner.query(`GRANT DELETE ON cargo.box_event TO ${names.service}`);
    await setUpSchema({ master, owner, names, erpBoxView: 'erp.v_box_info' });
    expect(await sqlState(service.query('DELETE FROM cargo.box_event'))).toBe('42501');
  });

  it('lets the reader read the schema, the ERP view and the read-contract view, and call the functions that read', async () => {
    const counts = await reader.query<{ records: number; plan: number; content: number }>(
      `SELECT (SELECT count(*) FROM cargo.location_record)::int AS records, (SELECT count(*) FROM erp.v_box_info)::int AS plan,
              (SELECT count(*) FROM cargo.box_content)::int AS content`,
    );
    expect(counts.rows[0]).toMatchObject({ records: 1, content: 0 });
    expect(counts.rows[0]?.plan).toBeGreaterThan(0);
    const boxes = await reader.query<{ boxes: string }>("SELECT cargo.zongpai_boxes('PLT-0001')::text AS boxes");
    expect(boxes.rows[0]?.boxes).toBe('[]');
  });

  it('refuses the reader every write with insufficient privilege (42501)', async () => {
    expect(
      await sqlState(
        reader.query(
          "INSERT INTO cargo.location_record (cargo_no, location_code, off_shelf, occurred_at, recorded_by) VALUES ('BOX-1002', 'A-01', false, now(), 'olga')",
        ),
      ),
    ).toBe('42501');
    expect(await sqlState(reader.query("UPDATE cargo.zongpai SET status = 'CLOSED'"))).toBe('42501');
    expect(await sqlState(reader.query('DELETE FROM cargo.event'))).toBe('42501');
    expect(await sqlState(reader.query("SELECT cargo.void_current('BOX-1001', 1) AS v"))).toBe('42501');
  });

  it('lets only the maintenance user run the history maintenance, which runs as the owner', async () => {
    const maintain = 'SELECT cargo.keep_location_history(25, 2)::text AS summary';
    expect(await sqlState(reader.query(maintain))).toBe('42501');
    expect(await sqlState(service.query(maintain))).toBe('42501');
    // What keep_location_history runs as the owner is the owner's alone.
    for (const user of [reader, service, maintenance])
      expect(await sqlState(user.query('SELECT cargo.maintain_location_history(1, 2)::text AS summary'))).toBe('42501');
    expect(await maintainLocationHistory(maintenance, { monthsKept: 25 })).toHaveProperty('created');
  });

  it('refuses the service user what only the maintenance does: the outbox pruned, the relay mark moved (42501)', async () => {
    for (const statement of ['DELETE FROM cargo.event', 'UPDATE cargo.event_relay SET last_published = 0'])
      expect(await sqlState(service.query(statement)), statement).toBe('42501');
  });

  it('lets the maintenance user sweep expired keys and relay the outbox: take the lease, read it, move the mark, prune it', async () => {
    await master.query(
      `INSERT INTO cargo.idempotency_key (caller, idem_key, route, request_hash, result, expires_at)
       VALUES ('olga', 'k-expired', 'LocationRecord', 'h', '[]', now() - interval '1 hour')`,
    );
    expect(await sweepExpiredKeys(maintenance)).toBe(1);
    await master.query(
      `INSERT INTO cargo.event (sequence, type, occurred_at, actor, data)
       VALUES (1, 'box.saved', now() - interval '30 days', 'olga', '{}'), (2, 'box.saved', now(), 'olga', '{}')`,
    );
    const run = { holder: randomUUID(), seconds: 90 };
    expect((await readPending(maintenance, run, 10)).events.map((e) => e.sequence)).toEqual([1, 2]);
    expect(await markPublished(maintenance, run, 2)).toBe(true);
    expect(await prunePublished(maintenance, 7)).toBe(1);
    expect((await readPending(maintenance, run, 10)).events).toEqual([]);
    expect(await measureAndRelease(maintenance, run.holder)).toBe(0);
  });

  it('refuses the maintenance user every write of a request, the ERP view and the schema (42501)', async () => {
    for (const statement of [
      "INSERT INTO cargo.location_record (cargo_no, location_code, off_shelf, occurred_at, recorded_by) VALUES ('BOX-1003', 'A-01', false, now(), 'mallory')",
      "INSERT INTO cargo.zongpai (zongpai_no) VALUES ('PLT-MALLORY')",
      "UPDATE cargo.box SET zongpai_no = 'PLT-0001'",
      'DELETE FROM cargo.box_item',
      'DELETE FROM cargo.location_current',
      "INSERT INTO cargo.event (sequence, type, actor, data) VALUES (99, 'box.saved', 'mallory', '{}')",
      'UPDATE cargo.event_sequence SET last = 0',
      "INSERT INTO cargo.idempotency_key (caller, idem_key, route, request_hash, result, expires_at) VALUES ('m', 'k', 'r', 'h', '[]', now())",
      "UPDATE cargo.idempotency_key SET result = '[]'",
      'SELECT count(*)::int AS n FROM cargo.location_record',
      'SELECT count(*)::int AS n FROM erp.v_box_info',
      "SELECT cargo.void_current('BOX-1001', 1) AS v",
      'CREATE TABLE cargo.intruder (a int)',
      'TRUNCATE cargo.event',
    ])
      expect(await sqlState(maintenance.query(statement)), statement).toBe('42501');
  });

  it('takes back from the service user what an earlier deployment granted it for the maintenance', async () => {
    await owner.query(`GRANT DELETE ON cargo.event TO ${names.service}`);
    await owner.query(`GRANT UPDATE ON cargo.event_relay TO ${names.service}`);
    await owner.query(`GRANT EXECUTE ON ALL FUNCTIONS IN SCHEMA cargo TO ${names.service}`);
    await setUpSchema({ master, owner, names, erpBoxView: 'erp.v_box_info' });
    for (const statement of [
      'DELETE FROM cargo.event',
      'UPDATE cargo.event_relay SET last_published = 0',
      'SELECT cargo.keep_location_history(1, 2)::text AS summary',
    ])
      expect(await sqlState(service.query(statement)), statement).toBe('42501');
  });

  it('deploys again without error, handing the owner a read-contract view an earlier deployment made as the master', async () => {
    const masterName = (await master.query<{ me: string }>('SELECT current_user::text AS me')).rows[0]!.me;
    await master.query(`ALTER VIEW cargo.box_content OWNER TO ${masterName}`);
    await ensureRoles(master, roles);
    const again = await setUpSchema({ master, owner, names, erpBoxView: 'erp.v_box_info' });
    expect(again).toEqual({ applied: [], erpViewGranted: true, boxContent: 'created' });
    const { rows } = await master.query<{ owner: string }>(
      "SELECT viewowner::text AS owner FROM pg_views WHERE schemaname = 'cargo' AND viewname = 'box_content'",
    );
    expect(rows).toEqual([{ owner: roles.owner.username }]);
    expect((await reader.query<{ n: number }>('SELECT count(*)::int AS n FROM cargo.box_content')).rows[0]?.n).toBe(0);
  });
});

describe.runIf(onPostgres)('the demo ERP view created by ops after the deployment', () => {
  it('is readable by the service and reader users at once when ops create it with npm run erp-view -- --demo', async () => {
    await ensureDemoErp(master, 'erp.v_late_view');
    expect(await sqlState(service.query('SELECT count(*)::int AS n FROM erp.v_late_view'))).toBe('42501');
    expect(await sqlState(reader.query('SELECT count(*)::int AS n FROM erp.v_late_view'))).toBe('42501');
    expect(await grantErpViewTo(master, [names.service, names.reader, 'cargo_nobody'], 'erp.v_late_view')).toEqual(
      [names.reader, names.service].sort(),
    );
    for (const user of [service, reader])
      expect(
        (await user.query<{ n: number }>('SELECT count(*)::int AS n FROM erp.v_late_view')).rows[0]?.n,
      ).toBeGreaterThan(0);
  });
});
