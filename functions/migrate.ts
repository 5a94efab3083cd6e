import { Logger } from '@aws-lambda-powertools/logger';
import { createDataApiDb } from '../lib/db/default.ts';
import { migrate } from '../lib/db/migrate.ts';
import { migrations } from '../lib/db/migrations/index.ts';
import { ensureBoxContentView } from '../lib/db/read-contract.ts';
import { ensureRoles, grantBoxContent, grantErpView, grantService } from '../lib/db/roles.ts';
import { readDatabaseUser, secretsClient } from '../lib/db/secrets.ts';
import { defineTask, taskHandler, type DataApiAction } from '../lib/http/route.ts';

const logger = new Logger();

/** The migrations run in one transaction. */
const MIGRATION: readonly DataApiAction[] = [
  'ExecuteStatement',
  'BeginTransaction',
  'CommitTransaction',
  'RollbackTransaction',
];

/**
 * Applies pending migrations; run by a CDK Trigger on every deployment. The Data API adapter
 * retries while Aurora resumes from zero capacity; a failed migration throws, which fails the
 * deployment.
 *
 * In the stack it signs in as the migration owner (DB_SECRET_ARN). With DB_MASTER_SECRET_ARN and
 * DB_SERVICE_SECRET_ARN set (the stack sets both) it first creates the owner and service roles as
 * the master user, with the passwords of their secrets, and afterwards grants the service role
 * read/write on the `cargo` schema and read on the ERP view. Without them (locally) it only migrates.
 * Either way it then (re)creates `cargo.box_content` over the ERP view when that exists.
 */
export const task = defineTask({
  id: 'Migrate',
  dataApi: MIGRATION,
  run: async ({ config, db }, env): Promise<{ applied: number[]; erpViewGranted?: boolean }> => {
    const masterSecretArn = env.DB_MASTER_SECRET_ARN;
    const serviceSecretArn = env.DB_SERVICE_SECRET_ARN;
    const { secretArn } = config.database;
    if (!masterSecretArn || !serviceSecretArn || secretArn === undefined) {
      const applied = await migrate(db(), migrations);
      const boxContent = await ensureBoxContentView(db(), config.erpBoxView);
      logger.info('migrations applied', { applied, boxContent });
      return { applied };
    }
    const secrets = secretsClient();
    const roles = {
      owner: await readDatabaseUser(secrets, secretArn),
      service: await readDatabaseUser(secrets, serviceSecretArn),
    };
    const master = createDataApiDb({ ...config, database: { ...config.database, secretArn: masterSecretArn } });
    try {
      await ensureRoles(master, roles, config.database.name);
      const applied = await migrate(db(), migrations);
      await grantService(db(), roles);
      const erpViewGranted = await grantErpView(master, roles, config.erpBoxView);
      // The read contract's view over the ERP view: the master may read the view it could grant.
      const boxContent = erpViewGranted ? await ensureBoxContentView(master, config.erpBoxView) : 'view missing';
      if (boxContent === 'created') await grantBoxContent(master, roles);
      if (boxContent === 'view unreadable')
        logger.warn('the ERP view lacks a column the service reads, or has one of another type: see npm run erp-view', {
          view: config.erpBoxView,
        });
      if (!erpViewGranted)
        logger.warn(
          "the service user may not read the ERP view yet (missing, or not the master's to grant): see npm run erp-view",
          { view: config.erpBoxView },
        );
      logger.info('migrations applied', { applied, erpViewGranted });
      return { applied, erpViewGranted };
    } finally {
      master.destroy();
    }
  },
});

export const handler = taskHandler(task, process.env);
