import { EventBridgeClient, PutEventsCommand } from '@aws-sdk/client-eventbridge';
import type { BusEntry } from './entries.ts';

/** What became of one entry: published, or refused with EventBridge's ErrorCode (e.g. ThrottlingException, InternalFailure). */
export type EntryResult =
  { readonly ok: true } | { readonly ok: false; readonly errorCode: string; readonly errorMessage: string };

/** The port the relay publishes through: one PutEvents call, one result per entry in order. */
export interface EventBus {
  put(entries: readonly BusEntry[]): Promise<EntryResult[]>;
}

export interface EventBridgeBusOptions {
  /** The bus name or ARN (`EVENT_BUS_NAME`). */
  readonly busName: string;
  /** Locally, the PutEvents stand-in of `npm start` (`EVENTBRIDGE_ENDPOINT`). */
  readonly endpoint?: string;
  readonly region?: string;
  readonly credentials?: { accessKeyId: string; secretAccessKey: string; sessionToken?: string };
}

/**
 * The {@link EventBus} over `@aws-sdk/client-eventbridge`. A partial failure (FailedEntryCount > 0)
 * is not an exception: each failed entry says so, for the relay to retry.
 *
 * @example
 * ```ts
 * const bus = createEventBridgeBus({ busName: 'cargo-events' });
 * const results = await bus.put([toEntry(event)]);
 * ```
 */
export const createEventBridgeBus = (options: EventBridgeBusOptions): EventBus & { destroy(): void } => {
  const client = new EventBridgeClient({
    ...(options.endpoint === undefined ? {} : { endpoint: options.endpoint }),
    ...(options.region === undefined ? {} : { region: options.region }),
    ...(options.credentials === undefined ? {} : { credentials: options.credentials }),
  });
  return {
    put: async (entries) => {
      const output = await client.send(
        new PutEventsCommand({ Entries: entries.map((entry) => ({ ...entry, EventBusName: options.busName })) }),
      );
      const results = output.Entries ?? [];
      return entries.map((_, index) => {
        const result = results[index];
        if (result?.EventId !== undefined && result.ErrorCode === undefined) return { ok: true } as const;
        return {
          ok: false,
          errorCode: result?.ErrorCode ?? 'MissingResult',
          errorMessage: result?.ErrorMessage ?? 'PutEvents returned no result for the entry',
        } as const;
      });
    },
    destroy: () => client.destroy(),
  };
};
