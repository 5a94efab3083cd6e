import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPgliteBackend } from '../../local/data-api/pglite-backend.ts';
import { startDataApiEmulator, type DataApiEmulator } from '../../local/data-api/server.ts';
import { pgliteTemplate } from '../support/pglite-template.ts';
import { runNpm, type Finished } from '../local/process.ts';

/**
 * `npm run erp-view` as ops run it against a deployed stack, here pointed at the local Data API
 * emulator (never AWS): the same SDK client, the same calls.
 */
const CLUSTER = 'arn:aws:rds:eu-central-1:123456789012:cluster:cargo';
const SECRET = 'arn:aws:secretsmanager:eu-central-1:123456789012:secret:cargo-master-AbC123';
/** An operator's credentials, allowed what the README asks of them. */
const OPS = {
  name: 'Ops',
  accessKeyId: 'AKIAOPS',
  secretAccessKey: 'ops-secret',
  operations: ['ExecuteStatement', 'BeginTransaction', 'CommitTransaction', 'RollbackTransaction'],
} as const;

let emulator: DataApiEmulator;
beforeAll(async () => {
  emulator = await startDataApiEmulator({
    backend: await createPgliteBackend({ loadDataDir: await pgliteTemplate() }),
    target: { resourceArn: CLUSTER, secretArn: SECRET, database: 'cargo' },
    identities: [OPS],
  });
});
afterAll(async () => emulator?.close());
const erpView = (...args: string[]) =>
  runNpm(
    [
      'run',
      '-s',
      'erp-view',
      '--',
      ...args,
      '--cluster-arn',
      CLUSTER,
      '--secret-arn',
      SECRET,
      '--endpoint',
      emulator.endpoint,
    ],
    {
      AWS_REGION: 'eu-central-1',
      AWS_ACCESS_KEY_ID: OPS.accessKeyId,
      AWS_SECRET_ACCESS_KEY: OPS.secretAccessKey,
    },
  );

/** The command ended with `code` and wrote `text` to `stream`. */
const expectEnded = (result: Finished, code: number, stream: 'stdout' | 'stderr', text: string) => {
  expect(result.code).toBe(code);
  expect(result[stream]).toContain(text);
};

describe('npm run erp-view', () => {
  it('--check reports a missing ERP view, naming it, and exits 1', async () => {
    expectEnded(await erpView('--check'), 1, 'stderr', 'erp.v_box_info is missing');
  });

  it('--demo creates the demo ERP view through the Data API, and --check then finds it readable', async () => {
    expectEnded(await erpView('--demo'), 0, 'stdout', 'created the demo ERP view erp.v_box_info');
    expectEnded(
      await erpView('--check'),
      0,
      'stdout',
      'erp.v_box_info is readable with every column the service reads',
    );
  });

  it('--demo leaves an existing view as it is', async () => {
    expectEnded(await erpView('--demo'), 0, 'stdout', 'erp.v_box_info already exists; left as it is');
  });

  it('--check names the columns an ops-made view lacks', async () => {
    await emulator.backend.query(
      'CREATE VIEW erp.v_partial AS SELECT box_no, order_no, item_code FROM erp.demo_box_plan',
    );
    expectEnded(
      await erpView('--check', '--view', 'erp.v_partial'),
      1,
      'stderr',
      'erp.v_partial lacks the columns customer_name, item_name, planned_quantity, unit',
    );
  });

  it('refuses to run without a cluster, naming what is missing', async () => {
    expectEnded(
      await runNpm(['run', '-s', 'erp-view', '--', '--check']),
      2,
      'stderr',
      '--cluster-arn and --secret-arn are required',
    );
  });
});
