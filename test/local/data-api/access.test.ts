import { BeginTransactionCommand, ExecuteStatementCommand, RollbackTransactionCommand } from '@aws-sdk/client-rds-data';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { functionIdentity, functionSecret, localSecretOf, localTarget } from '../../../local/credentials.ts';
import { ROLE_NAMES } from '../../../lib/db/roles.ts';
import { clientFor, failure, signedPost, startFixture } from './harness.ts';
import type { Fixture } from './harness.ts';
import { loadRoutes } from '../../../infra/routes.ts';

// The grants and credentials below come from the discovered declarations.
await loadRoutes();

const boxSave = functionIdentity('BoxSave');
const boxInfo = functionIdentity('BoxInfo');
const openApi = functionIdentity('OpenApi');
const migrate = functionIdentity('Migrate');
const relay = functionIdentity('EventRelay');
const target = localTarget({});
/** The cluster and database, with the master's secret. */
const ARNS = { resourceArn: target.resourceArn, secretArn: target.secretArn, database: target.database };
/** The same, with the secret a function's own database user signs in with. */
const signedInAs = (functionId: string) => ({ ...ARNS, secretArn: functionSecret(functionId) });

describe('who may call the Data API emulator', () => {
  let fx: Fixture;
  beforeAll(async () => {
    fx = await startFixture('pglite', { identities: [boxSave, boxInfo, openApi, migrate, relay], target });
    for (const user of Object.values(ROLE_NAMES)) await fx.exec(`CREATE ROLE ${user} NOLOGIN`);
    await fx.exec('CREATE TABLE scan (code text)');
    await fx.exec(`GRANT SELECT, INSERT ON scan TO ${ROLE_NAMES.service}`);
    await fx.exec(`GRANT SELECT ON scan TO ${ROLE_NAMES.reader}`);
  });
  afterAll(async () => {
    await fx?.close();
  });
  const scans = async () => (await fx.exec('SELECT count(*) AS n FROM scan')).records?.[0]?.[0]?.longValue;
  const insert = JSON.stringify({ ...ARNS, sql: "INSERT INTO scan VALUES ('X')" });

  it('listens on the loopback only', () => {
    expect(new URL(fx.emulator.endpoint).hostname).toBe('127.0.0.1');
  });

  it('refuses an unsigned call with UnrecognizedClientException (403) and runs nothing', async () => {
    const response = await signedPost(fx.emulator.endpoint, '/Execute', insert, { signAs: null });
    expect(response.status).toBe(403);
    expect(response.headers.get('x-amzn-errortype')).toBe('UnrecognizedClientException');
    expect(await scans()).toBe(0);
  });

  it('refuses an access key the local runtime never handed out with UnrecognizedClientException', async () => {
    const client = clientFor(fx.emulator.endpoint, { accessKeyId: 'local', secretAccessKey: 'local' });
    const error = await failure(
      client.send(new ExecuteStatementCommand({ ...ARNS, sql: "INSERT INTO scan VALUES ('X')" })),
    );
    client.destroy();
    expect(error.name).toBe('UnrecognizedClientException');
    expect(error.$metadata?.httpStatusCode).toBe(403);
    expect(await scans()).toBe(0);
  });

  it('refuses a known access key signed with the wrong secret key with InvalidSignatureException', async () => {
    const response = await signedPost(fx.emulator.endpoint, '/Execute', insert, {
      signAs: { accessKeyId: boxSave.accessKeyId, secretAccessKey: 'guessed' },
    });
    expect(response.status).toBe(403);
    expect(response.headers.get('x-amzn-errortype')).toBe('InvalidSignatureException');
    expect(await scans()).toBe(0);
  });

  it('refuses a body changed after it was signed with InvalidSignatureException', async () => {
    const response = await signedPost(fx.emulator.endpoint, '/Execute', JSON.stringify({ ...ARNS, sql: 'SELECT 1' }), {
      signAs: boxSave,
      tamper: () => insert,
    });
    expect(response.headers.get('x-amzn-errortype')).toBe('InvalidSignatureException');
    expect(await scans()).toBe(0);
  });

  it('lets a request function run a statement with its own key, signed in as its own database user', async () => {
    const client = clientFor(fx.emulator.endpoint, boxSave);
    const out = await client.send(
      new ExecuteStatementCommand({ ...signedInAs('BoxSave'), sql: 'SELECT current_user::text AS me' }),
    );
    client.destroy();
    expect(out.records).toEqual([[{ stringValue: ROLE_NAMES.service }]]);
  });

  it("refuses a request function the master's secret and another function's with AccessDeniedException on the secret", async () => {
    const client = clientFor(fx.emulator.endpoint, boxSave);
    for (const secretArn of [ARNS.secretArn, localSecretOf('owner'), functionSecret('BoxInfo')]) {
      const error = await failure(
        client.send(new ExecuteStatementCommand({ ...ARNS, secretArn, sql: "INSERT INTO scan VALUES ('X')" })),
      );
      expect(error.name).toBe('AccessDeniedException');
      expect(error.message).toMatch(
        /assumed-role\/BoxSave\/.* is not authorized to perform: secretsmanager:GetSecretValue/,
      );
    }
    client.destroy();
    expect(await scans()).toBe(0);
  });

  it('runs a GET route function as the reader, whom the database refuses every write (42501)', async () => {
    const client = clientFor(fx.emulator.endpoint, boxInfo);
    const read = await client.send(
      new ExecuteStatementCommand({ ...signedInAs('BoxInfo'), sql: 'SELECT count(*) AS n FROM scan' }),
    );
    const write = await failure(
      client.send(new ExecuteStatementCommand({ ...signedInAs('BoxInfo'), sql: "INSERT INTO scan VALUES ('X')" })),
    );
    client.destroy();
    expect(read.records).toEqual([[{ longValue: 0 }]]);
    expect(write.name).toBe('DatabaseErrorException');
    expect(write.message).toMatch(/permission denied for table scan; SQLState: 42501/);
    expect(await scans()).toBe(0);
  });

  it("runs a scheduled task as the maintenance user, and refuses it the service user's secret", async () => {
    const client = clientFor(fx.emulator.endpoint, relay);
    const out = await client.send(
      new ExecuteStatementCommand({ ...signedInAs('EventRelay'), sql: 'SELECT current_user::text AS me' }),
    );
    const error = await failure(
      client.send(
        new ExecuteStatementCommand({ ...ARNS, secretArn: localSecretOf('service'), sql: 'SELECT 1 AS one' }),
      ),
    );
    client.destroy();
    expect(out.records).toEqual([[{ stringValue: ROLE_NAMES.maintenance }]]);
    expect(error.name).toBe('AccessDeniedException');
  });

  it('signs a transaction in as the user of the secret that began it: the migrator as the owner', async () => {
    const client = clientFor(fx.emulator.endpoint, migrate);
    const owner = { ...ARNS, secretArn: localSecretOf('owner') };
    const { transactionId } = await client.send(new BeginTransactionCommand(owner));
    const out = await client.send(
      new ExecuteStatementCommand({ ...owner, transactionId, sql: 'SELECT current_user::text AS me' }),
    );
    await client.send(new RollbackTransactionCommand({ ...owner, transactionId }));
    client.destroy();
    expect(out.records).toEqual([[{ stringValue: ROLE_NAMES.owner }]]);
  });

  it('refuses BeginTransaction to a request function with AccessDeniedException (403), as the stack grants it ExecuteStatement only', async () => {
    const client = clientFor(fx.emulator.endpoint, boxSave);
    const error = await failure(client.send(new BeginTransactionCommand(ARNS)));
    client.destroy();
    expect(error.name).toBe('AccessDeniedException');
    expect(error.$metadata?.httpStatusCode).toBe(403);
    expect(error.message).toMatch(/assumed-role\/BoxSave\/.* is not authorized to perform: rds-data:BeginTransaction/);
  });

  it('lets the migration function open a transaction', async () => {
    const client = clientFor(fx.emulator.endpoint, migrate);
    const { transactionId } = await client.send(new BeginTransactionCommand(ARNS));
    client.destroy();
    expect(transactionId).toEqual(expect.any(String));
    await fx.client.send(new RollbackTransactionCommand({ ...ARNS, transactionId }));
  });

  it('refuses every Data API call of the public OpenAPI function with AccessDeniedException', async () => {
    const client = clientFor(fx.emulator.endpoint, openApi);
    const error = await failure(client.send(new ExecuteStatementCommand({ ...ARNS, sql: 'SELECT 1' })));
    client.destroy();
    expect(error.name).toBe('AccessDeniedException');
  });

  it('refuses another cluster ARN with AccessDeniedException, another secret with AccessDeniedException on the secret', async () => {
    const cluster = await failure(
      fx.exec("INSERT INTO scan VALUES ('X')", [], { resourceArn: `${ARNS.resourceArn}-other` }),
    );
    expect(cluster.name).toBe('AccessDeniedException');
    const secret = await failure(
      fx.exec("INSERT INTO scan VALUES ('X')", [], { secretArn: `${ARNS.secretArn}-other` }),
    );
    expect(secret.name).toBe('AccessDeniedException');
    expect(secret.message).toMatch(/secretsmanager:GetSecretValue/);
    expect(await scans()).toBe(0);
  });

  it('refuses another database with DatabaseErrorException, and accepts the database left out', async () => {
    const error = await failure(fx.exec("INSERT INTO scan VALUES ('X')", [], { database: 'postgres' }));
    expect(error.name).toBe('DatabaseErrorException');
    expect(error.message).toMatch(/database "postgres" does not exist/);
    expect(await scans()).toBe(0);
    expect((await fx.exec('SELECT 1 AS one', [], { database: undefined })).records).toEqual([[{ longValue: 1 }]]);
  });
});
