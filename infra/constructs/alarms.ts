import { Duration } from 'aws-cdk-lib';
import type * as apigateway from 'aws-cdk-lib/aws-apigateway';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import * as actions from 'aws-cdk-lib/aws-cloudwatch-actions';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import * as logs from 'aws-cdk-lib/aws-logs';
import * as sns from 'aws-cdk-lib/aws-sns';
import * as subscriptions from 'aws-cdk-lib/aws-sns-subscriptions';
import { Construct } from 'constructs';

export interface ServiceAlarmsProps {
  /** Namespace of the custom metrics (the stack name). */
  readonly namespace: string;
  readonly alarmEmail?: string;
}

const PERIOD = Duration.minutes(5);

/**
 * Alarms on what needs a person, all notifying one SNS topic:
 * - API 5xx answers (any cause, including 503 DATABASE_UNAVAILABLE);
 * - per function, Lambda errors (a handler crashed, timed out or failed at cold start: the
 *   middleware turns every handled error into a response, so any is a bug) and throttles;
 * - the Data API unreachable: a metric filter counts the functions' `request failed` logs whose
 *   `error_code` is DATABASE_UNAVAILABLE (the retry budget ran out), across all functions;
 * - the ERP view missing or unreadable: the same on ERP_VIEW_UNAVAILABLE, at the first one.
 *
 * @example
 * ```ts
 * const alarms = new ServiceAlarms(this, 'Alarms', { namespace: 'CargoBoxingService' });
 * alarms.watchApi(api.restApi);
 * alarms.watchFunction('BoxSave', fn.function, fn.logGroup);
 * ```
 */
export class ServiceAlarms extends Construct {
  readonly topic: sns.Topic;
  private readonly namespace: string;
  private readonly action: actions.SnsAction;

  constructor(scope: Construct, id: string, props: ServiceAlarmsProps) {
    super(scope, id);
    this.namespace = props.namespace;
    this.topic = new sns.Topic(this, 'Topic', { displayName: `${props.namespace} alarms`, enforceSSL: true });
    if (props.alarmEmail) this.topic.addSubscription(new subscriptions.EmailSubscription(props.alarmEmail));
    this.action = new actions.SnsAction(this.topic);

    const databaseUnavailable = new cloudwatch.Metric({
      namespace: this.namespace,
      metricName: 'DatabaseUnavailable',
      statistic: cloudwatch.Stats.SUM,
      period: PERIOD,
    });
    this.alarm(
      'DatabaseUnavailable',
      databaseUnavailable,
      5,
      'Requests answered 503 DATABASE_UNAVAILABLE: the Data API kept failing for the whole retry budget (cluster paused too long, at max capacity, or unreachable).',
    );
    const erpViewUnavailable = new cloudwatch.Metric({
      namespace: this.namespace,
      metricName: 'ErpViewUnavailable',
      statistic: cloudwatch.Stats.SUM,
      period: PERIOD,
    });
    this.alarm(
      'ErpViewUnavailable',
      erpViewUnavailable,
      1,
      'Requests answered 503 ERP_VIEW_UNAVAILABLE: the ERP view (ERP_BOX_VIEW) is missing, lacks a column, or the service user may not read it. Check it with npm run erp-view -- --check.',
    );
  }

  watchApi(api: apigateway.RestApi): void {
    this.alarm(
      'Api5xx',
      api.metricServerError({ period: PERIOD, statistic: cloudwatch.Stats.SUM }),
      5,
      'The API answered 5xx to handhelds (see the access log and the function logs by request_id).',
    );
  }

  /** A scheduled task's function: an alarm at its first failed run (no request waits for it to notice). */
  watchTask(id: string, fn: lambda.IFunction): void {
    this.alarm(
      `${id}Errors`,
      fn.metricErrors({ period: PERIOD, statistic: cloudwatch.Stats.SUM }),
      1,
      `${id}: a scheduled run failed; it does its work again at its next run, once the cause is fixed.`,
    );
  }

  watchFunction(id: string, fn: lambda.IFunction, logGroup: logs.ILogGroup): void {
    this.alarm(
      `${id}Errors`,
      fn.metricErrors({ period: PERIOD, statistic: cloudwatch.Stats.SUM }),
      1,
      `${id}: invocations failed (crash, timeout or cold-start configuration error).`,
    );
    this.alarm(
      `${id}Throttles`,
      fn.metricThrottles({ period: PERIOD, statistic: cloudwatch.Stats.SUM }),
      1,
      `${id}: invocations throttled (account or function concurrency limit).`,
    );
    logGroup.addMetricFilter(`DatabaseUnavailable${id}`, {
      filterPattern: logs.FilterPattern.stringValue('$.error_code', '=', 'DATABASE_UNAVAILABLE'),
      metricNamespace: this.namespace,
      metricName: 'DatabaseUnavailable',
      metricValue: '1',
    });
    logGroup.addMetricFilter(`ErpViewUnavailable${id}`, {
      filterPattern: logs.FilterPattern.stringValue('$.error_code', '=', 'ERP_VIEW_UNAVAILABLE'),
      metricNamespace: this.namespace,
      metricName: 'ErpViewUnavailable',
      metricValue: '1',
    });
  }

  private alarm(id: string, metric: cloudwatch.IMetric, threshold: number, description: string): void {
    const alarm = new cloudwatch.Alarm(this, id, {
      metric,
      threshold,
      evaluationPeriods: 1,
      comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
      alarmDescription: description,
    });
    alarm.addAlarmAction(this.action);
    alarm.addOkAction(this.action);
  }
}
