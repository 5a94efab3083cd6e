import { createHash, createHmac } from 'node:crypto';
import { SignatureV4 } from '@smithy/signature-v4';
import { afterAll, beforeAll, beforeEach } from 'vitest';
import { ExecuteStatementCommand, RDSDataClient } from '@aws-sdk/client-rds-data';
import type { ExecuteStatementCommandOutput, SqlParameter } from '@aws-sdk/client-rds-data';
import type { SqlBackend } from '../../../local/data-api/backend.ts';
import { createPgliteBackend } from '../../../local/data-api/pglite-backend.ts';
import { createPostgresBackend } from '../../../local/data-api/postgres-backend.ts';
import { startDataApiEmulator } from '../../../local/data-api/server.ts';
import { pgliteTemplate } from '../../support/pglite-template.ts';
import { throwawayDatabase } from '../../support/throwaway-database.ts';
import type { DataApiEmulator, DataApiEmulatorOptions } from '../../../local/data-api/server.ts';
import type { DataApiIdentity } from '../../../local/data-api/access.ts';
import { operatorIdentity } from '../../../local/credentials.ts';

/** The engines every emulator test runs on: PGlite always, PostgreSQL when TEST_DATABASE_URL is set. */
export const BACKENDS: readonly ('pglite' | 'postgres')[] = process.env.TEST_DATABASE_URL
  ? ['pglite', 'postgres']
  : ['pglite'];

export const ARNS = {
  resourceArn: 'arn:aws:rds:us-east-1:123456789012:cluster:local',
  secretArn: 'arn:aws:secretsmanager:us-east-1:123456789012:secret:local',
  database: 'cargo',
} as const;

export interface Fixture {
  readonly emulator: DataApiEmulator;
  readonly client: RDSDataClient;
  /** ExecuteStatement with the ARNs filled in. */
  exec(
    sql: string,
    parameters?: SqlParameter[],
    extra?: Partial<ConstructorParameters<typeof ExecuteStatementCommand>[0]>,
  ): Promise<ExecuteStatementCommandOutput>;
  close(): Promise<void>;
}

export const createBackend = async (
  kind: 'pglite' | 'postgres',
): Promise<{ backend: SqlBackend; drop: () => Promise<void> }> => {
  if (kind === 'pglite')
    return { backend: await createPgliteBackend({ loadDataDir: await pgliteTemplate() }), drop: async () => undefined };
  const database = await throwawayDatabase();
  return { backend: await createPostgresBackend({ connectionString: database.url }), drop: database.drop };
};

/** A real RDSDataClient signing with `credentials`. */
export const clientFor = (
  endpoint: string,
  credentials: { accessKeyId: string; secretAccessKey: string },
): RDSDataClient =>
  new RDSDataClient({
    endpoint,
    region: 'us-east-1',
    credentials: { accessKeyId: credentials.accessKeyId, secretAccessKey: credentials.secretAccessKey },
    maxAttempts: 1,
  });

/** The caller of the fixture's client: every Data API operation allowed. */
export const TESTER: DataApiIdentity = operatorIdentity('EmulatorTest');

/**
 * An emulator on a fresh database of `kind`, standing for the cluster of {@link ARNS} (or the
 * `target` given), and a real RDSDataClient signing as {@link TESTER}, whose `exec` names the
 * target's master secret; `identities` adds other callers.
 */
export const startFixture = async (
  kind: 'pglite' | 'postgres',
  options: Partial<DataApiEmulatorOptions> = {},
): Promise<Fixture> => {
  const { backend, drop } = await createBackend(kind);
  const emulator = await startDataApiEmulator({
    target: ARNS,
    ...options,
    identities: [TESTER, ...(options.identities ?? [])],
    backend,
  });
  const client = clientFor(emulator.endpoint, TESTER);
  const { resourceArn, secretArn, database } = options.target ?? ARNS;
  return {
    emulator,
    client,
    exec: (sql, parameters, extra = {}) =>
      client.send(new ExecuteStatementCommand({ resourceArn, secretArn, database, sql, parameters, ...extra })),
    close: async () => {
      try {
        client.destroy();
        await emulator.close();
      } finally {
        await drop(); // FORCE: even when closing failed, no throwaway database is left behind
      }
    },
  };
};

/**
 * The fixture of the enclosing `describe` ({@link startFixture}): started before its first test,
 * closed after its last. Use it from the tests and hooks of that `describe` only.
 */
export const useFixture = (kind: 'pglite' | 'postgres', options: Partial<DataApiEmulatorOptions> = {}): Fixture => {
  let fixture: Fixture | undefined;
  beforeAll(async () => {
    fixture = await startFixture(kind, options);
  });
  afterAll(async () => {
    await fixture?.close();
  });
  const started = (): Fixture => {
    if (fixture === undefined) throw new Error('the fixture starts in beforeAll');
    return fixture;
  };
  return {
    get emulator() {
      return started().emulator;
    },
    get client() {
      return started().client;
    },
    exec: (sql, parameters, extra) => started().exec(sql, parameters, extra),
    close: () => started().close(),
  };
};

/** Before each test of the enclosing `describe`: the table `name` dropped and created anew, empty. */
export const freshTableEachTest = (fx: Fixture, name: string, columns: string) => {
  beforeEach(async () => {
    await fx.exec(`DROP TABLE IF EXISTS ${name}`);
    await fx.exec(`CREATE TABLE ${name} (${columns})`);
  });
};

/** The error a promise rejects with (fails the test when it resolves). */
export const failure = async (
  promise: Promise<unknown>,
): Promise<Error & { $metadata?: { httpStatusCode?: number } }> => {
  try {
    await promise;
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected the call to fail');
};

/** SHA-256 (keyed: HMAC) for SignatureV4, from node:crypto. */
class Sha256 {
  readonly #hash;
  constructor(secret?: string | Uint8Array) {
    this.#hash = secret === undefined ? createHash('sha256') : createHmac('sha256', secret);
  }
  update(data: string | Uint8Array): void {
    this.#hash.update(data);
  }
  async digest(): Promise<Uint8Array> {
    return new Uint8Array(this.#hash.digest());
  }
}

/**
 * A raw POST to the emulator, signed with SigV4 as the SDK signs (for bodies the SDK would not
 * send); `signAs: null` sends it unsigned, `tamper` changes the body after signing.
 */
export const signedPost = async (
  endpoint: string,
  path: string,
  body: string,
  options: { signAs?: { accessKeyId: string; secretAccessKey: string } | null; tamper?: (body: string) => string } = {},
): Promise<Response> => {
  const url = new URL(path, endpoint);
  const headers: Record<string, string> = { 'content-type': 'application/json', host: url.host };
  const credentials = options.signAs === undefined ? TESTER : options.signAs;
  if (credentials !== null) {
    const signer = new SignatureV4({ service: 'rds-data', region: 'us-east-1', credentials, sha256: Sha256 as never });
    const signed = await signer.sign({
      method: 'POST',
      protocol: 'http:',
      hostname: url.hostname,
      port: Number(url.port),
      path: url.pathname,
      query: {},
      headers,
      body,
    });
    Object.assign(headers, signed.headers);
  }
  delete headers.host;
  return fetch(url, { method: 'POST', headers, body: options.tamper ? options.tamper(body) : body });
};
