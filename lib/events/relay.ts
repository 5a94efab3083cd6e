import { randomUUID } from 'node:crypto';
import type { Db } from '../db/types.ts';
import type { EventBus } from './bus.ts';
import { batches, toEntry, type EventEnvelope } from './entries.ts';
import {
  markPublished,
  measureAndRelease,
  prunePublished,
  readPending,
  releaseLease,
  type RelayLease,
} from './outbox.ts';

/**
 * How long a run's lease lasts after each statement that takes or renews it: longer than the relay
 * function's timeout (infra/constructs/events.ts), so a run's lease expires only once the run is
 * over, whether it ended or Lambda stopped it.
 */
export const RELAY_LEASE_SECONDS = 90;

/** What one run did; `stuck` names the event that could not be published after every attempt. */
export interface RelayReport {
  readonly published: number;
  /** PutEvents calls or entries that failed and were retried. */
  readonly retries: number;
  readonly pruned: number;
  /** Seconds since the oldest event still unpublished occurred (0: all published): the alarm's metric. */
  readonly oldestUnpublishedAgeSeconds: number;
  /**
   * Set when this run left the outbox to another: `busy`, another run held the lease when this one
   * came to read; `lost`, this run's lease ran out (by its own clock) or was taken over before it
   * was done. The run that holds the lease publishes on from the mark.
   */
  readonly yielded?: 'busy' | 'lost';
  readonly stuck?: {
    readonly id: string;
    readonly sequence: number;
    readonly errorCode: string;
    readonly errorMessage: string;
  };
}

export interface RelayLogger {
  warn(message: string, details: Record<string, unknown>): void;
}

export interface RelayOptions {
  readonly db: Db;
  readonly bus: EventBus;
  /** Published events older than this are deleted (`EVENTS_RETENTION_DAYS`). */
  readonly retentionDays: number;
  readonly logger?: RelayLogger;
  /** Attempts per batch before the run gives up on it (the next run starts again at the same event). @default 5 */
  readonly attempts?: number;
  /** First backoff; doubled on each attempt, with jitter. @default 200 */
  readonly baseDelayMs?: number;
  /** A run stops reading more events after this long, so it ends before its function times out. @default 40 000 */
  readonly budgetMs?: number;
  /** How long the lease lasts after each renewal. @default {@link RELAY_LEASE_SECONDS} */
  readonly leaseSeconds?: number;
  /** Events read per statement. @default 100 */
  readonly pageSize?: number;
  readonly sleep?: (ms: number) => Promise<void>;
  readonly now?: () => number;
}

type Failure = NonNullable<RelayReport['stuck']>;

/** A run's hold on the lease: since when (by its own clock) it is certainly held, or lost. */
interface Hold {
  readonly lease: RelayLease;
  renewedAt: number;
  lost: boolean;
}

/**
 * The outbox relay: publishes every event above the publication mark to the bus, at least once
 * and in sequence order, then advances the mark. Order over speed: a batch goes out only after
 * the one before it is marked; when an entry fails, the mark stops just before it and the rest
 * of the batch is sent again from there (entries after it that did go out go out twice, with the
 * same `id`), with backoff; after the last attempt the run ends and reports the event stuck, and
 * the next run starts at it again. A crash between publishing and marking publishes the same
 * events again, with the same ids: consumers drop duplicates by `id`.
 *
 * One run at a time publishes: a run takes the lease (`cargo.event_relay`, lib/events/outbox.ts)
 * with its first read and renews it with every read and mark; a run that finds it held ends at
 * once (`yielded: 'busy'`), and only the holder moves the mark. A run starts a PutEvents call only
 * within the first half of the lease since its last renewal (by its own clock, timed from before
 * the statement was sent); past that, or when its mark finds another holder, it ends
 * (`yielded: 'lost'`): the lease may be someone else's by now.
 *
 * @example
 * ```ts
 * const report = await makeRelay({ db, bus, retentionDays: 7 }).run();
 * ```
 */
export const makeRelay = (options: RelayOptions) => {
  const { db, bus, retentionDays } = options;
  const attempts = options.attempts ?? 5;
  const baseDelayMs = options.baseDelayMs ?? 200;
  const pageSize = options.pageSize ?? 100;
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  const now = options.now ?? Date.now;
  const leaseSeconds = options.leaseSeconds ?? RELAY_LEASE_SECONDS;

  /** Publishes one batch; answers how many went out (and were marked) and the failure that stopped it, if any. */
  const publishBatch = async (
    batch: readonly EventEnvelope[],
    counters: { retries: number },
    hold: Hold,
  ): Promise<{ published: number; failure?: Failure }> => {
    let remaining = batch;
    let published = 0;
    let failure: Failure | undefined;
    for (let attempt = 1; attempt <= attempts; attempt += 1) {
      if (attempt > 1) {
        counters.retries += 1;
        await sleep(baseDelayMs * 2 ** (attempt - 2) * (0.5 + Math.random() / 2));
      }
      if (now() - hold.renewedAt >= (leaseSeconds * 1000) / 2) {
        hold.lost = true;
        return { published };
      }
      let results;
      try {
        results = await bus.put(remaining.map(toEntry));
      } catch (error) {
        // The whole call failed (throttled, unreachable, refused): nothing of it counts as published.
        const { name, message } = error instanceof Error ? error : new Error(String(error));
        failure = { id: remaining[0]!.id, sequence: remaining[0]!.sequence, errorCode: name, errorMessage: message };
        options.logger?.warn('PutEvents failed', { attempt, ...failure });
        continue;
      }
      const firstFailed = results.findIndex((result) => !result.ok);
      const through = firstFailed === -1 ? remaining.length : firstFailed;
      if (through > 0) {
        const sentAt = now();
        if (!(await markPublished(db, hold.lease, remaining[through - 1]!.sequence))) {
          hold.lost = true;
          return { published };
        }
        hold.renewedAt = sentAt;
        published += through;
      }
      if (firstFailed === -1) return { published };
      const failed = results[firstFailed] as Extract<(typeof results)[number], { ok: false }>;
      failure = {
        id: remaining[firstFailed]!.id,
        sequence: remaining[firstFailed]!.sequence,
        errorCode: failed.errorCode,
        errorMessage: failed.errorMessage,
      };
      options.logger?.warn('PutEvents entry failed', { attempt, ...failure });
      remaining = remaining.slice(firstFailed);
    }
    return { published, ...(failure === undefined ? {} : { failure }) };
  };

  return {
    /** One run: publish what is pending (within the time budget) if it holds the lease, prune, measure, release. */
    run: async (): Promise<RelayReport> => {
      const started = now();
      const hold: Hold = { lease: { holder: randomUUID(), seconds: leaseSeconds }, renewedAt: started, lost: false };
      const counters = { retries: 0 };
      let published = 0;
      let stuck: Failure | undefined;
      let yielded: RelayReport['yielded'];
      let reads = 0;
      try {
        while (stuck === undefined && now() - started < (options.budgetMs ?? 40_000)) {
          const sentAt = now();
          const { held, events: pending, more } = await readPending(db, hold.lease, pageSize);
          if (!held) {
            yielded = reads === 0 ? 'busy' : 'lost';
            break;
          }
          reads += 1;
          hold.renewedAt = sentAt;
          for (const batch of batches(pending)) {
            const outcome = await publishBatch(batch, counters, hold);
            published += outcome.published;
            if (outcome.failure !== undefined) stuck = outcome.failure;
            if (outcome.failure !== undefined || hold.lost) break;
          }
          if (hold.lost) yielded = 'lost';
          if (!more || yielded !== undefined) break;
        }
        // Pruning is the holder's: a run that yielded leaves it to the run that holds the lease.
        const pruned = yielded === undefined ? await prunePublished(db, retentionDays) : 0;
        const oldestUnpublishedAgeSeconds = await measureAndRelease(db, hold.lease.holder);
        return {
          published,
          retries: counters.retries,
          pruned,
          oldestUnpublishedAgeSeconds,
          ...(yielded === undefined ? {} : { yielded }),
          ...(stuck === undefined ? {} : { stuck }),
        };
      } catch (error) {
        // The next run need not wait for the lease to expire; if this fails too, it expires.
        await releaseLease(db, hold.lease.holder).catch(() => undefined);
        throw error;
      }
    },
  };
};
