import { Logger } from '@aws-lambda-powertools/logger';
import { createDataApiDb } from '../lib/db/default.ts';
import { ensureRoles } from '../lib/db/roles.ts';
import { readDatabaseUser, secretsClient } from '../lib/db/secrets.ts';
import { setUpSchema } from '../lib/db/setup.ts';
import { defineTask, taskHandler, type DataApiAction } from '../lib/http/route.ts';
import { awsClientOptions } from '../lib/runtime.ts';

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
 * It signs in as the migration owner (DB_SECRET_ARN). It first creates the owner, service, reader
 * and maintenance roles as the master user (DB_MASTER_SECRET_ARN), with the passwords of their
 * secrets (DB_SERVICE_SECRET_ARN, DB_READER_SECRET_ARN, DB_MAINTENANCE_SECRET_ARN); after migrating
 * it grants the service user read/write and the reader read on the `cargo` schema, both read on
 * the ERP view, the maintenance user what the scheduled tasks do, and (re)creates
 * `cargo.box_content` over the ERP view when that exists (lib/db/setup.ts).
 */
export const task = defineTask({
  id: 'Migrate',
  dataApi: MIGRATION,
  databaseUser: 'owner',
  run: async ({ config, db }, env): Promise<{ applied: number[]; erpViewGranted: boolean }> => {
    const secretArns = {
      master: env.DB_MASTER_SECRET_ARN,
      service: env.DB_SERVICE_SECRET_ARN,
      reader: env.DB_READER_SECRET_ARN,
      maintenance: env.DB_MAINTENANCE_SECRET_ARN,
      owner: config.database.secretArn,
    };
    const missing = Object.entries(secretArns).filter(([, arn]) => !arn);
    if (missing.length > 0)
      throw new Error(
        `the migration function needs the secrets of the ${missing.map(([user]) => user).join(', ')} user`,
      );
    const secrets = secretsClient(env);
    const roles = {
      owner: await readDatabaseUser(secrets, secretArns.owner!),
      service: await readDatabaseUser(secrets, secretArns.service!),
      reader: await readDatabaseUser(secrets, secretArns.reader!),
      maintenance: await readDatabaseUser(secrets, secretArns.maintenance!),
    };
    const names = {
      owner: roles.owner.username,
      service: roles.service.username,
      reader: roles.reader.username,
      maintenance: roles.maintenance.username,
    };
    const master = createDataApiDb(
      { ...config, database: { ...config.database, secretArn: secretArns.master! } },
      awsClientOptions(env),
    );
    try {
      await ensureRoles(master, roles);
      const { applied, erpViewGranted, boxContent } = await setUpSchema({
        master,
        owner: db(),
        names,
        erpBoxView: config.erpBoxView,
      });
      if (boxContent === 'view unreadable')
        logger.warn('the ERP view lacks a column the service reads, or has one of another type: see npm run erp-view', {
          view: config.erpBoxView,
        });
      if (!erpViewGranted)
        logger.warn(
          "the service's users may not read the ERP view yet (missing, or not the master's to grant): see npm run erp-view",
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
