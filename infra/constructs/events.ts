import { Duration, SecretValue, Validations } from 'aws-cdk-lib';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import * as actions from 'aws-cdk-lib/aws-cloudwatch-actions';
import * as events from 'aws-cdk-lib/aws-events';
import * as targets from 'aws-cdk-lib/aws-events-targets';
import type * as sns from 'aws-cdk-lib/aws-sns';
import * as sqs from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { EVENT_SOURCE } from '../../lib/events/entries.ts';
import { OLDEST_UNPUBLISHED_METRIC } from '../../lib/events/metrics.ts';
import type { RELAY_LEASE_SECONDS } from '../../lib/events/relay.ts';
import type { Database } from './database.ts';
import { ServiceFunction, type ServiceFunctionProps } from './service-function.ts';

/** The ERP's HTTPS endpoint that receives every event, and the secret its requests carry in a header. */
export interface ErpWebhook {
  readonly url: string;
  /** A Secrets Manager secret whose value is sent in `header` (e.g. `Bearer …` for Authorization, or an API key). */
  readonly secretArn: string;
  readonly header: string;
}

export interface ServiceEventsProps extends Omit<ServiceFunctionProps, 'entry' | 'description'> {
  readonly database: Database;
  /** The alarm topic of the stack. */
  readonly alarmTopic: sns.ITopic;
  /** Namespace of the relay's metrics (the stack name, as for the other alarms). */
  readonly namespace: string;
  /** An existing bus to publish to, by name; unset creates one. */
  readonly existingBusName?: string;
  /** Keep an archive of the service's events for replay, this many days (0: forever). */
  readonly archiveDays?: number;
  readonly erpWebhook?: ErpWebhook;
}

/** The relay runs every minute: no event waits longer than that (plus one run) when the bus takes it. */
const SCHEDULE = Duration.minutes(1);
/**
 * Below the relay's lease ({@link RELAY_LEASE_SECONDS}): Lambda stops a run before the lease it
 * last renewed expires, so an expired lease's run is over (test/infra/events.test.ts holds it).
 */
export const RELAY_TIMEOUT = Duration.seconds(55);
/** The alarm's threshold: an unpublished event this old means the relay is stuck or not running. */
export const STUCK_AFTER = Duration.minutes(5);

/**
 * The service's events on EventBridge: the bus (created, or an existing one by name), the relay
 * function (`functions/event-relay.ts`) run every minute by a rule, allowed exactly
 * `events:PutEvents` on that bus and `rds-data:ExecuteStatement` on the cluster, and an alarm
 * when the oldest unpublished event is older than {@link STUCK_AFTER} or the relay stops
 * reporting. No reserved concurrency (a new account, whose limit is 10, has none to reserve):
 * runs that overlap publish one at a time by the relay's lease in the database
 * (lib/events/relay.ts). Optionally an archive of the bus for replay, and the ERP's HTTPS
 * webhook as an API destination with its connection's auth, every failed delivery kept in a queue.
 *
 * @example
 * ```ts
 * new ServiceEvents(this, 'Events', { ...functionDefaults, database, alarmTopic: alarms.topic, namespace: 'CargoBoxingService' });
 * ```
 */
export class ServiceEvents extends Construct {
  readonly bus: events.IEventBus;
  readonly function: ServiceFunction;

  constructor(scope: Construct, id: string, props: ServiceEventsProps) {
    super(scope, id);
    const { database, alarmTopic, namespace, existingBusName, archiveDays, erpWebhook, ...functionProps } = props;
    this.bus =
      existingBusName === undefined
        ? new events.EventBus(this, 'Bus', { description: `${namespace}: events of the cargo service` })
        : events.EventBus.fromEventBusName(this, 'Bus', existingBusName);

    this.function = new ServiceFunction(this, 'Relay', {
      ...functionProps,
      environment: {
        ...functionProps.environment,
        EVENT_BUS_NAME: this.bus.eventBusName,
        POWERTOOLS_METRICS_NAMESPACE: namespace,
      },
      entry: 'functions/event-relay.ts',
      description: 'Publishes the event outbox to EventBridge in sequence order (every minute)',
      timeout: RELAY_TIMEOUT,
      retryBudget: Duration.seconds(20),
    });
    database.connect(this.function.function, 'EventRelay');
    this.bus.grantPutEventsTo(this.function.function);
    new events.Rule(this, 'EveryMinute', {
      schedule: events.Schedule.rate(SCHEDULE),
      targets: [new targets.LambdaFunction(this.function.function, { retryAttempts: 0 })],
    });

    this.alarmOnStuckEvents(namespace, alarmTopic);
    if (archiveDays !== undefined) {
      new events.Archive(this, 'Archive', {
        sourceEventBus: this.bus,
        eventPattern: { source: [EVENT_SOURCE] },
        description: 'Every event of the cargo service, for replay',
        ...(archiveDays === 0 ? {} : { retention: Duration.days(archiveDays) }),
      });
    }
    if (erpWebhook !== undefined) this.deliverTo(erpWebhook, alarmTopic);
  }

  private alarmOnStuckEvents(namespace: string, topic: sns.ITopic): void {
    const age = new cloudwatch.Metric({
      namespace,
      metricName: OLDEST_UNPUBLISHED_METRIC,
      statistic: cloudwatch.Stats.MAXIMUM,
      period: Duration.minutes(5),
    });
    const alarm = new cloudwatch.Alarm(this, 'StuckEvent', {
      metric: age,
      threshold: STUCK_AFTER.toSeconds(),
      evaluationPeriods: 1,
      comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      // The relay reports every minute, also when all is published: silence means it does not run.
      treatMissingData: cloudwatch.TreatMissingData.BREACHING,
      alarmDescription: `An event has waited ${String(STUCK_AFTER.toMinutes())} minutes or more to be published to EventBridge (later events wait behind it), or the relay stopped reporting. The relay's log names the event and the PutEvents error.`,
    });
    alarm.addAlarmAction(new actions.SnsAction(topic));
    alarm.addOkAction(new actions.SnsAction(topic));
  }

  private deliverTo(webhook: ErpWebhook, topic: sns.ITopic): void {
    const connection = new events.Connection(this, 'ErpConnection', {
      description: 'Auth header of the ERP webhook',
      authorization: events.Authorization.apiKey(webhook.header, SecretValue.secretsManager(webhook.secretArn)),
    });
    const destination = new events.ApiDestination(this, 'ErpWebhook', {
      connection,
      endpoint: webhook.url,
      httpMethod: events.HttpMethod.POST,
      description: 'The ERP webhook: every event of the service, as EventBridge delivers it',
      rateLimitPerSecond: 20,
    });
    const failed = new sqs.Queue(this, 'ErpWebhookFailed', {
      enforceSSL: true,
      retentionPeriod: Duration.days(14),
      encryption: sqs.QueueEncryption.SQS_MANAGED,
    });
    Validations.of(failed).acknowledge({
      id: 'AwsSolutions-SQS3',
      reason:
        "This queue is the dead-letter queue of the ERP webhook rule's target (which cdk-nag does not see, as no queue's redrive policy names it); nothing consumes from it, it keeps what was not delivered for 14 days, alarmed on, for a redrive.",
    });
    new events.Rule(this, 'ToErp', {
      eventBus: this.bus,
      eventPattern: { source: [EVENT_SOURCE] },
      targets: [
        new targets.ApiDestination(destination, {
          retryAttempts: 185,
          maxEventAge: Duration.hours(24),
          deadLetterQueue: failed,
        }),
      ],
    });
    const undelivered = new cloudwatch.Alarm(this, 'ErpWebhookUndelivered', {
      metric: failed.metricApproximateNumberOfMessagesVisible({
        period: Duration.minutes(5),
        statistic: cloudwatch.Stats.MAXIMUM,
      }),
      threshold: 1,
      evaluationPeriods: 1,
      comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
      alarmDescription:
        'Events the ERP webhook did not accept for 24 hours are in the ErpWebhookFailed queue: fix the webhook, then redrive them or replay the archive.',
    });
    undelivered.addAlarmAction(new actions.SnsAction(topic));
    undelivered.addOkAction(new actions.SnsAction(topic));
  }
}
