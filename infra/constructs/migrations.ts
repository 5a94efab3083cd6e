import { Duration } from 'aws-cdk-lib';
import * as triggers from 'aws-cdk-lib/triggers';
import { Construct } from 'constructs';
import type { Database } from './database.ts';
import { ServiceFunction, type ServiceFunctionProps } from './service-function.ts';

export interface MigrationsProps extends Omit<
  ServiceFunctionProps,
  'entry' | 'description' | 'timeout' | 'retryBudget'
> {
  readonly database: Database;
}

/** The longest the Data API adapter may wait for a paused cluster (`DB_RETRY_BUDGET_MS` accepts at most 120 s). */
const RESUME_BUDGET = Duration.minutes(2);
/**
 * The resume budget, then the migrations themselves. Migration 017 indexes a large warehouse's
 * year of history again, a month per statement, in about 124 s on a slow machine
 * (docs/PERFORMANCE.md §4): ten minutes after the resume leave room for about four such years.
 * Not Lambda's longest (15 minutes): the Trigger's provider runs at most that long too, and it
 * must outlive the migration to tell CloudFormation that it failed; a provider that times out
 * answers nothing, and CloudFormation waits an hour before it rolls back.
 */
export const MIGRATION_TIMEOUT = Duration.minutes(12);
/**
 * How long the Trigger's provider waits for the migration function's answer: a minute more than
 * the function may run, so that a migration stopped at its timeout is reported as the failure it
 * is, with three minutes of the provider's 15 left to answer CloudFormation.
 */
const TRIGGER_WAIT = MIGRATION_TIMEOUT.plus(Duration.minutes(1));

/**
 * Runs `functions/migrate.ts` during `cdk deploy`, after the database exists and before the
 * request handlers are updated, so new code never meets an old schema. A migration that throws,
 * or a run past {@link MIGRATION_TIMEOUT}, fails the deployment at once (and CloudFormation rolls
 * back).
 *
 * When it runs: the Trigger is bound to the migrate function's current version, and that version
 * changes whenever its bundle changes. Every migration is bundled into it
 * (`lib/db/migrations/index.ts`), so adding one re-runs it, and so does pointing the stack at
 * another cluster or database (its environment changes). Deployments that change neither skip
 * the run: `cdk diff` stays clean and a paused cluster is not woken for nothing. Migrations are
 * idempotent, so running it by hand (`aws lambda invoke`) at any time is safe.
 *
 * @example
 * ```ts
 * const migrations = new Migrations(this, 'Migrations', { database, projectRoot, environment, ... });
 * migrations.runBefore(routeFunction);
 * ```
 */
export class Migrations extends Construct {
  readonly function: ServiceFunction;
  private readonly trigger: triggers.Trigger;

  constructor(scope: Construct, id: string, props: MigrationsProps) {
    super(scope, id);
    const { database, ...functionProps } = props;
    this.function = new ServiceFunction(this, 'Migrate', {
      ...functionProps,
      // Signed in as the migration owner; the master's secret creates the roles.
      environment: { ...functionProps.environment, ...database.migrationEnvironment },
      entry: 'functions/migrate.ts',
      description: 'Applies database migrations during deployment (CDK Trigger)',
      timeout: MIGRATION_TIMEOUT,
      retryBudget: RESUME_BUDGET,
    });
    database.connect(this.function.function, 'Migrate');
    database.grantMigrationSecrets(this.function.function);
    this.trigger = new triggers.Trigger(this, 'Trigger', {
      handler: this.function.function,
      timeout: TRIGGER_WAIT,
      invocationType: triggers.InvocationType.REQUEST_RESPONSE,
      executeOnHandlerChange: true,
      executeAfter: [database],
    });
  }

  /** Makes `construct` wait for the migrations of this deployment. */
  runBefore(...constructs: Construct[]): void {
    this.trigger.executeBefore(...constructs);
  }
}
