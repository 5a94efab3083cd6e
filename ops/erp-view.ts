import { parseArgs } from 'node:util';
import { grantErpViewTo } from '../lib/db/grants.ts';
import { ROLE_NAMES } from '../lib/db/roles.ts';
import type { Db } from '../lib/db/types.ts';
import { ensureDemoErp } from '../local/demo-erp.ts';

/**
 * `npm run -s erp-view -- --check|--demo --cluster-arn ARN --secret-arn ARN [--database cargo] [--view erp.v_box_info]`
 *
 * The ERP view on a deployed stack, where the cluster is reachable only through the RDS Data API:
 * `--check` proves the view exists with every column the service reads and can be read;
 * `--demo` creates the demo view (the plan of the README) when no relation of that name exists.
 * Runs with the caller's AWS credentials (the usual AWS_PROFILE / AWS_REGION) and the secret
 * named, usually the cluster's master secret (stack output `MasterSecretArn`).
 */
const USAGE = `usage: npm run -s erp-view -- --check|--demo --cluster-arn ARN --secret-arn ARN [--database NAME] [--view SCHEMA.NAME]
  --check             check that the ERP view exists, has the SPEC's columns and can be read
  --demo              create the demo ERP view (demo tables with the README's plan) if none exists
  --cluster-arn ARN   the Aurora cluster (stack output ClusterArn)
  --secret-arn ARN    a secret the Data API signs in with (stack output MasterSecretArn)
  --database NAME     the database (default cargo, the stack's databaseName)
  --view NAME         the ERP view (default ERP_BOX_VIEW or erp.v_box_info)
  --service-user NAME --demo grants it read on the view when the role exists (default cargo_service)
  --reader-user NAME  the same for the read-only user (default cargo_reader)
  --owner-user NAME   the same for the migration owner (default cargo_owner)
`;

/** The columns the service reads (SPEC, The ERP view). */
const COLUMNS = ['box_no', 'order_no', 'customer_name', 'item_code', 'item_name', 'planned_quantity', 'unit'];

class UsageError extends Error {}

const options = () => {
  try {
    return parseArgs({
      options: {
        check: { type: 'boolean', default: false },
        demo: { type: 'boolean', default: false },
        'cluster-arn': { type: 'string' },
        'secret-arn': { type: 'string' },
        database: { type: 'string', default: 'cargo' },
        view: { type: 'string', default: process.env.ERP_BOX_VIEW || 'erp.v_box_info' },
        // Tests point the client at the local Data API emulator.
        endpoint: { type: 'string' },
        'service-user': { type: 'string', default: ROLE_NAMES.service },
        'reader-user': { type: 'string', default: ROLE_NAMES.reader },
        'owner-user': { type: 'string', default: ROLE_NAMES.owner },
        help: { type: 'boolean', short: 'h', default: false },
      },
    }).values;
  } catch (error) {
    throw new UsageError((error as Error).message.split('. ')[0]);
  }
};

/** Whether the view answers with every column; a message saying what is wrong otherwise. */
const checkErpView = async (db: Db, view: string): Promise<{ ok: boolean; message: string }> => {
  const [schema, name] = view.includes('.') ? view.split('.') : ['public', view];
  const { rows } = await db.query<{ column_name: string }>(
    'SELECT column_name::text AS column_name FROM information_schema.columns WHERE table_schema = :schema AND table_name = :name',
    { schema: schema as string, name: name as string },
  );
  if (rows.length === 0)
    return {
      ok: false,
      message: `${view} is missing (or this user may not see it): create it, or run npm run erp-view -- --demo for the demo plan`,
    };
  const present = new Set(rows.map((r) => r.column_name));
  const lacking = COLUMNS.filter((c) => !present.has(c));
  if (lacking.length > 0) return { ok: false, message: `${view} lacks the columns ${lacking.join(', ')}` };
  // One row proves the SELECT privilege on every column without scanning the ERP's data.
  const sample = await db.query(`SELECT ${COLUMNS.join(', ')} FROM ${view} LIMIT 1`);
  return {
    ok: true,
    message: `${view} is readable with every column the service reads${sample.rows.length === 0 ? ' (it has no rows yet)' : ''}`,
  };
};

const main = async (): Promise<number> => {
  const values = options();
  if (values.help) {
    process.stdout.write(USAGE);
    return 0;
  }
  if (values.check === values.demo) throw new UsageError('give exactly one of --check and --demo');
  const clusterArn = values['cluster-arn'];
  const secretArn = values['secret-arn'];
  if (clusterArn === undefined || secretArn === undefined)
    throw new UsageError('--cluster-arn and --secret-arn are required');
  // The same validation as the functions' ERP_BOX_VIEW and DB_NAME (safe to place in SQL).
  const { loadConfig } = await import('../lib/config.ts');
  const config = loadConfig({
    ERP_BOX_VIEW: values.view,
    DB_NAME: values.database,
    DB_CLUSTER_ARN: clusterArn,
    DB_SECRET_ARN: secretArn,
    DATA_API_ENDPOINT: values.endpoint,
    DB_RETRY_BUDGET_MS: '120000', // a paused cluster takes a while to resume
  });
  const { createDataApiDb } = await import('../lib/db/default.ts');
  const db = createDataApiDb(config);
  try {
    if (values.demo) {
      const created = await ensureDemoErp(db, config.erpBoxView);
      process.stdout.write(
        created
          ? `created the demo ERP view ${config.erpBoxView}\n`
          : `${config.erpBoxView} already exists; left as it is\n`,
      );
      // The service's users read it from now on, not only after the next migration run.
      const users = [values['owner-user'], values['service-user'], values['reader-user']];
      const granted = await grantErpViewTo(db, users, config.erpBoxView);
      if (granted.length > 0) process.stdout.write(`${granted.join(', ')} may read ${config.erpBoxView}\n`);
      return 0;
    }
    const result = await checkErpView(db, config.erpBoxView);
    (result.ok ? process.stdout : process.stderr).write(`${result.message}\n`);
    return result.ok ? 0 : 1;
  } finally {
    db.destroy();
  }
};

try {
  process.exitCode = await main();
} catch (error) {
  const e = error as Error;
  if (error instanceof UsageError) process.stderr.write(`npm run erp-view: ${e.message}\n${USAGE}`);
  else process.stderr.write(`npm run erp-view: ${e.name === 'ConfigError' ? e.message : `${e.name}: ${e.message}`}\n`);
  process.exitCode = error instanceof UsageError || e.name === 'ConfigError' ? 2 : 1;
}
