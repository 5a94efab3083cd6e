import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { task } from '../../functions/migrate.ts';
import type { SqlBackend, SqlSession } from '../../local/data-api/backend.ts';
import { createPostgresBackend } from '../../local/data-api/postgres-backend.ts';
import { startDataApiEmulator, type DataApiEmulator } from '../../local/data-api/server.ts';
import { ensureDemoErp } from '../../local/demo-erp.ts';
import { loadConfig } from '../../lib/config.ts';
import type { DataApiDb } from '../../lib/db/data-api.ts';
import { createDataApiDb } from '../../lib/db/default.ts';
import { migrations } from '../../lib/db/migrations/index.ts';
import { scramVerifier, type ServiceRoles } from '../../lib/db/roles.ts';
import { taskHandler } from '../../lib/http/route.ts';
import { throwawayDatabase } from '../support/throwaway-database.ts';

/**
 * The migration function as a deployment runs it on AWS: the users' passwords read from Secrets
 * Manager (a stand-in answering GetSecretValue), the roles created through the Data API as the
 * master, the schema migrated as the owner. PostgreSQL only: these are login roles with passwords.
 */
const onPostgres = process.env.TEST_BACKEND === 'postgres';
const suffix = randomBytes(4).toString('hex');
const password = () => randomBytes(24).toString('hex');
const users: ServiceRoles = {
  owner: { username: `cargo_owner_${suffix}`, password: password() },
  service: { username: `cargo_service_${suffix}`, password: password() },
  reader: { username: `cargo_reader_${suffix}`, password: password() },
  maintenance: { username: `cargo_maintenance_${suffix}`, password: password() },
};
const arn = (user: string) => `arn:aws:secretsmanager:us-east-1:123456789012:secret:${user}-${suffix}`;
const CLUSTER = 'arn:aws:rds:us-east-1:123456789012:cluster:cargo';
const KEYS = { accessKeyId: 'AKIAMIGRATE', secretAccessKey: 'migrate-secret' };

/** The secrets a stand-in for Secrets Manager holds, by ARN, and the ARNs it was asked for. */
interface SecretsStandIn {
  readonly endpoint: string;
  readonly secrets: Map<string, string>;
  readonly asked: string[];
  close(): Promise<void>;
}

/** Answers Secrets Manager's GetSecretValue (JSON 1.1 protocol), ResourceNotFoundException for an unknown ARN. */
const startSecretsManager = async (): Promise<SecretsStandIn> => {
  const secrets = new Map<string, string>();
  const asked: string[] = [];
  const server: Server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      const { SecretId } = JSON.parse(body) as { SecretId: string };
      asked.push(SecretId);
      const secret = secrets.get(SecretId);
      response.setHeader('content-type', 'application/x-amz-json-1.1');
      if (request.headers['x-amz-target'] !== 'secretsmanager.GetSecretValue' || secret === undefined) {
        response.statusCode = 400;
        return response.end(JSON.stringify({ __type: 'ResourceNotFoundException', message: 'Secret not found' }));
      }
      response.end(
        JSON.stringify({ ARN: SecretId, Name: SecretId, SecretString: secret, VersionStages: ['AWSCURRENT'] }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    secrets,
    asked,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
};

/** The backend, with every statement text it is handed kept in `texts`. */
const recording = (backend: SqlBackend, texts: string[]): SqlBackend => {
  const kept = (session: SqlSession): SqlSession => ({
    query: (text, values) => {
      texts.push(text);
      return session.query(text, values);
    },
  });
  return {
    kind: backend.kind,
    ...kept(backend),
    withSession: (fn, user) => backend.withSession((session) => fn(kept(session)), user),
    begin: async (user) => {
      const tx = await backend.begin(user);
      return { ...kept(tx), commit: () => tx.commit(), rollback: () => tx.rollback() };
    },
    close: () => backend.close(),
  };
};

/** What PostgreSQL keeps as a role's password (superuser only). */
const storedVerifier = async (admin: pg.Client, role: string): Promise<string> => {
  const { rows } = await admin.query<{ verifier: string }>(
    'SELECT rolpassword AS verifier FROM pg_authid WHERE rolname = $1',
    [role],
  );
  return rows[0]?.verifier ?? '';
};

/** Whether `verifier` is the SCRAM verifier of `secret` (recomputed with its own salt and iterations). */
const verifies = (verifier: string, secret: string): boolean => {
  const [, iterations = '', salt = ''] = /^SCRAM-SHA-256\$(\d+):([^$]+)\$/.exec(verifier) ?? [];
  return verifier === scramVerifier(secret, Buffer.from(salt, 'base64'), Number(iterations));
};

describe.runIf(onPostgres)('the migration function, run as a deployment runs it', () => {
  let admin: pg.Client;
  let secretsManager: SecretsStandIn;
  let emulator: DataApiEmulator;
  let master: DataApiDb;
  const texts: string[] = [];
  let drop: () => Promise<void> = async () => undefined;
  let env: Record<string, string>;
  let migrate: () => Promise<{ applied: number[]; erpViewGranted: boolean }>;

  beforeAll(async () => {
    admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
    await admin.connect();
    const database = await throwawayDatabase();
    drop = database.drop;
    secretsManager = await startSecretsManager();
    for (const [user, { username, password }] of Object.entries(users))
      secretsManager.secrets.set(arn(user), JSON.stringify({ username, password, engine: 'postgres' }));
    emulator = await startDataApiEmulator({
      backend: recording(await createPostgresBackend({ connectionString: database.url }), texts),
      target: {
        resourceArn: CLUSTER,
        secretArn: arn('master'),
        database: 'cargo',
        users: Object.entries(users).map(([user, { username }]) => ({ secretArn: arn(user), username })),
      },
      identities: [
        {
          name: 'Migrate',
          ...KEYS,
          operations: task.dataApi,
          secrets: ['master', 'owner', 'service', 'reader', 'maintenance'].map(arn),
        },
      ],
    });
    // As on AWS: the function's own environment, with the Data API and Secrets Manager endpoints.
    env = {
      AWS_REGION: 'us-east-1',
      AWS_ACCESS_KEY_ID: KEYS.accessKeyId,
      AWS_SECRET_ACCESS_KEY: KEYS.secretAccessKey,
      AWS_ENDPOINT_URL_SECRETS_MANAGER: secretsManager.endpoint,
      DATA_API_ENDPOINT: emulator.endpoint,
      DB_CLUSTER_ARN: CLUSTER,
      DB_SECRET_ARN: arn('owner'),
      DB_MASTER_SECRET_ARN: arn('master'),
      DB_SERVICE_SECRET_ARN: arn('service'),
      DB_READER_SECRET_ARN: arn('reader'),
      DB_MAINTENANCE_SECRET_ARN: arn('maintenance'),
    };
    migrate = taskHandler(task, env);
    master = createDataApiDb(
      loadConfig({ DB_CLUSTER_ARN: CLUSTER, DB_SECRET_ARN: arn('master'), DATA_API_ENDPOINT: emulator.endpoint }),
      { region: 'us-east-1', credentials: KEYS },
    );
  });

  afterAll(async () => {
    master?.destroy();
    await emulator?.close();
    await secretsManager?.close();
    await drop();
    if (admin === undefined) return;
    for (const { username } of Object.values(users)) {
      await admin.query(`DROP OWNED BY ${username}`).catch(() => undefined);
      await admin.query(`DROP ROLE IF EXISTS ${username}`);
    }
    await admin.end();
  });

  it('writes a password as the SCRAM verifier PostgreSQL itself makes of it', async () => {
    const role = `cargo_scram_${suffix}`;
    const secret = password();
    await admin.query(`CREATE ROLE ${role} LOGIN PASSWORD '${secret}'`);
    try {
      const verifier = await storedVerifier(admin, role);
      expect(verifier).toMatch(/^SCRAM-SHA-256\$/);
      expect(verifies(verifier, secret)).toBe(true);
      expect(verifies(verifier, password())).toBe(false);
    } finally {
      await admin.query(`DROP ROLE ${role}`);
    }
  });

  it("migrates a new cluster: each user signs in with its secret's password, which no statement holds", async () => {
    expect(await migrate()).toEqual({
      applied: migrations.map((m) => m.id).sort((a, b) => a - b),
      erpViewGranted: false,
    });
    for (const { username, password: secret } of Object.values(users)) {
      const { rows } = await admin.query<{ login: boolean }>(
        'SELECT rolcanlogin AS login FROM pg_roles WHERE rolname = $1',
        [username],
      );
      expect(rows, username).toEqual([{ login: true }]);
      expect(verifies(await storedVerifier(admin, username), secret), username).toBe(true);
    }
    const { rows } = await master.query<{ owner: string }>(
      "SELECT pg_get_userbyid(nspowner)::text AS owner FROM pg_namespace WHERE nspname = 'cargo'",
    );
    expect(rows).toEqual([{ owner: users.owner.username }]);
    // The function reads its users' secrets, never the master's: it signs in as the master through the Data API.
    expect(new Set(secretsManager.asked)).toEqual(new Set(['owner', 'service', 'reader', 'maintenance'].map(arn)));
    expect(texts.length).toBeGreaterThan(migrations.length);
    for (const { password: secret } of Object.values(users))
      expect(texts.filter((text) => text.includes(secret))).toEqual([]);
  });

  it('applies nothing on the next deployment, grants the ERP view ops made meanwhile and takes a rotated password', async () => {
    await ensureDemoErp(master, 'erp.v_box_info');
    const rotated = password();
    secretsManager.secrets.set(
      arn('service'),
      JSON.stringify({ username: users.service.username, password: rotated, engine: 'postgres' }),
    );
    expect(await migrate()).toEqual({ applied: [], erpViewGranted: true });
    expect(verifies(await storedVerifier(admin, users.service.username), rotated)).toBe(true);
    const { rows } = await master.query<{ service: boolean; reader: boolean; maintenance: boolean }>(
      `SELECT has_table_privilege(:service, 'erp.v_box_info', 'SELECT') AS service,
              has_table_privilege(:reader, 'erp.v_box_info', 'SELECT') AS reader,
              has_table_privilege(:maintenance, 'erp.v_box_info', 'SELECT') AS maintenance`,
      { service: users.service.username, reader: users.reader.username, maintenance: users.maintenance.username },
    );
    // The maintenance reads nothing of the ERP.
    expect(rows).toEqual([{ service: true, reader: true, maintenance: false }]);
  });

  it("refuses to run without the maintenance user's secret, naming it", async () => {
    const withoutMaintenance = taskHandler(task, { ...env, DB_MAINTENANCE_SECRET_ARN: undefined });
    await expect(withoutMaintenance()).rejects.toThrow(/secrets of the maintenance user/);
  });
});
