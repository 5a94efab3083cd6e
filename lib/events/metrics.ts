import type { RelayReport } from './relay.ts';

/** The metric the stuck-event alarm watches (seconds since the oldest unpublished event occurred). */
export const OLDEST_UNPUBLISHED_METRIC = 'OldestUnpublishedEventAge';

/**
 * One CloudWatch Embedded Metric Format line for a relay run: CloudWatch turns it into metrics
 * (no PutMetricData call, no extra permission). No dimensions: one relay per stack.
 *
 * @example
 * ```ts
 * process.stdout.write(`${relayMetrics('CargoBoxingService', report, Date.now())}\n`);
 * ```
 */
export const relayMetrics = (namespace: string, report: RelayReport, timestamp: number): string =>
  JSON.stringify({
    _aws: {
      Timestamp: timestamp,
      CloudWatchMetrics: [
        {
          Namespace: namespace,
          Dimensions: [[]],
          Metrics: [
            { Name: OLDEST_UNPUBLISHED_METRIC, Unit: 'Seconds' },
            { Name: 'EventsPublished', Unit: 'Count' },
            { Name: 'EventPublishRetries', Unit: 'Count' },
          ],
        },
      ],
    },
    [OLDEST_UNPUBLISHED_METRIC]: report.oldestUnpublishedAgeSeconds,
    EventsPublished: report.published,
    EventPublishRetries: report.retries,
  });
