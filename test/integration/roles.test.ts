import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureDemoErp } from '../../infra/local/demo-erp.ts';
import { createPostgresBackend } from '../../infra/local/data-api/postgres-backend.ts';
import { startDataApiEmulator, type DataApiEmulator } from '../../infra/local/data-api/server.ts';
import { loadConfig } from '../../lib/config.ts';
import type { DataApiDb } from '../../lib/db/data-api.ts';
import { createDataApiDb } from '../../lib/db/default.ts';
import { migrate } from '../../lib/db/migrate.ts';
import { migrations } from '../../lib/db/migrations/index.ts';
import { ensureRoles, grantErpView, grantErpViewTo, grantService, type ServiceRoles } from '../../lib/db/roles.ts';
import { throwawayDatabase } from '../support/throwaway-database.ts';

/**
 * Least privilege in the database, as the migration function sets it up on AWS: the master
 * creates an owner and a service role, the owner migrates, the service role may only read and
 * write. PostgreSQL only: PGlite has a single user.
 */
const onPostgres = process.env.TEST_BACKEND === 'postgres';
const suffix = randomBytes(4).toString('hex');
const roles: ServiceRoles = {
  owner: { username: `cargo_owner_${suffix}`, password: randomBytes(24).toString('hex') },
  service: { username: `cargo_service_${suffix}`, password: randomBytes(24).toString('hex') },
};

interface Session {
  emulator: DataApiEmulator;
  db: DataApiDb;
}
const sessions: Session[] = [];
let drop: () => Promise<void> = async () => undefined;
let master: DataApiDb;
let owner: DataApiDb;
let service: DataApiDb;

/** A Data API adapter signed in as `user` (the emulator's connection; trust auth locally). */
const signIn = async (url: string, user?: string): Promise<DataApiDb> => {
  const target = new URL(url);
  if (user !== undefined) target.username = user;
  const resourceArn = 'arn:aws:rds:local:000000000000:cluster:c';
  const secretArn = `arn:aws:secretsmanager:local:000000000000:secret:${user ?? 'master'}`;
  const emulator = await startDataApiEmulator({
    backend: await createPostgresBackend({ connectionString: target.toString() }),
    target: { resourceArn, secretArn, database: 'cargo' },
    identities: [
      {
        name: 'Migrate',
        accessKeyId: 'local',
        secretAccessKey: 'local',
        operations: ['ExecuteStatement', 'BeginTransaction', 'CommitTransaction', 'RollbackTransaction'],
      },
    ],
  });
  const db = createDataApiDb(
    loadConfig({ DB_CLUSTER_ARN: resourceArn, DB_SECRET_ARN: secretArn, DATA_API_ENDPOINT: emulator.endpoint }),
    { region: 'us-east-1', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } },
  );
  sessions.push({ emulator, db });
  return db;
};

beforeAll(async () => {
  if (!onPostgres) return;
  const database = await throwawayDatabase();
  drop = database.drop;
  master = await signIn(database.url);
  const name = new URL(database.url).pathname.slice(1);
  await ensureRoles(master, roles, name);
  owner = await signIn(database.url, roles.owner.username);
  service = await signIn(database.url, roles.service.username);
  await migrate(owner, migrations);
  await grantService(owner, roles);
  await ensureDemoErp(master, 'erp.v_box_info');
  await grantErpView(master, roles, 'erp.v_box_info');
});

afterAll(async () => {
  for (const { db, emulator } of sessions) {
    db.destroy();
    await emulator.close();
  }
  await drop();
  if (!onPostgres) return;
  const admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
  await admin.connect();
  await admin.query(`DROP ROLE IF EXISTS ${roles.service.username}`);
  await admin.query(`DROP ROLE IF EXISTS ${roles.owner.username}`);
  await admin.end();
});

const sqlState = async (work: Promise<unknown>): Promise<string | undefined> =>
  work.then(
    () => undefined,
    (error: { sqlState?: string }) => error.sqlState,
  );

describe.runIf(onPostgres)('database users of the service', () => {
  it('gives every table of the cargo schema to the migration owner', async () => {
    const { rows } = await master.query<{ owner: string }>(
      "SELECT DISTINCT tableowner::text AS owner FROM pg_tables WHERE schemaname = 'cargo'",
    );
    expect(rows).toEqual([{ owner: roles.owner.username }]);
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

  it('creates the roles again without error on the next deployment, keeping the owner', async () => {
    const name = (await master.query<{ db: string }>('SELECT current_database()::text AS db')).rows[0]!.db;
    await ensureRoles(master, roles, name);
    expect(await migrate(owner, migrations)).toEqual([]);
    await grantService(owner, roles);
  });
});

describe.runIf(onPostgres)('the demo ERP view created by ops after the deployment', () => {
  it('is readable by the service user at once when ops create it with npm run erp-view -- --demo', async () => {
    await ensureDemoErp(master, 'erp.v_late_view');
    expect(await sqlState(service.query('SELECT count(*)::int AS n FROM erp.v_late_view'))).toBe('42501');
    expect(await grantErpViewTo(master, roles.service.username, 'erp.v_late_view')).toBe(true);
    expect(
      (await service.query<{ n: number }>('SELECT count(*)::int AS n FROM erp.v_late_view')).rows[0]?.n,
    ).toBeGreaterThan(0);
  });
});
