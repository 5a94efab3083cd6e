import { Duration } from 'aws-cdk-lib';
import * as events from 'aws-cdk-lib/aws-events';
import * as targets from 'aws-cdk-lib/aws-events-targets';
import { Construct } from 'constructs';
import type { Database } from './database.ts';
import { ServiceFunction, type ServiceFunctionProps } from './service-function.ts';

export interface KeySweepProps extends Omit<ServiceFunctionProps, 'entry' | 'description'> {
  readonly database: Database;
}

/**
 * The hourly maintenance (`functions/idempotency-sweep.ts`): creates the location history's
 * months ahead (two are always there, so missing runs is harmless), drops the months past
 * LOCATION_HISTORY_MONTHS, and deletes expired idempotency keys (requests never read an expired
 * key, so that only keeps the table small).
 *
 * @example
 * ```ts
 * const sweep = new KeySweep(this, 'IdempotencySweep', { database, projectRoot, environment, logRetentionDays: 90, logLevel: 'INFO' });
 * ```
 */
export class KeySweep extends Construct {
  readonly function: ServiceFunction;

  constructor(scope: Construct, id: string, props: KeySweepProps) {
    super(scope, id);
    const { database, ...functionProps } = props;
    this.function = new ServiceFunction(this, 'Sweep', {
      ...functionProps,
      entry: 'functions/idempotency-sweep.ts',
      description: 'Location history months ahead and retention; deletes expired idempotency keys (hourly)',
      timeout: Duration.minutes(2),
      retryBudget: Duration.seconds(60),
    });
    database.connect(this.function.function, 'IdempotencySweep');
    new events.Rule(this, 'Hourly', {
      schedule: events.Schedule.rate(Duration.hours(1)),
      targets: [new targets.LambdaFunction(this.function.function, { retryAttempts: 0 })],
    });
  }
}
