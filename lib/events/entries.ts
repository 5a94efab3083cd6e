/**
 * An event as the outbox keeps it and the feed serves it: the envelope of the SPEC's "Events".
 * `data` is the full snapshot, so a consumer never has to call back.
 */
export interface EventEnvelope {
  readonly id: string;
  readonly sequence: number;
  readonly type: string;
  readonly occurred_at: string;
  readonly actor: string;
  readonly idempotency_key: string | null;
  readonly data: unknown;
}

/** One PutEvents entry, as EventBridge takes it (it has no id field: the envelope's `id` is the key to drop duplicates by). */
export interface BusEntry {
  readonly Source: string;
  readonly DetailType: string;
  readonly Detail: string;
}

/** The `source` of every event the service publishes. */
export const EVENT_SOURCE = 'cargo.service';

/** PutEvents takes at most 10 entries per call... */
export const MAX_ENTRIES_PER_CALL = 10;
/** ...and at most 256 KiB of entries in all (EventBridge's own size rule, see {@link entrySize}). */
export const MAX_BYTES_PER_CALL = 256 * 1024;

/**
 * The entry of one event: source `cargo.service`, detail-type the event type, detail the envelope.
 *
 * @example
 * ```ts
 * toEntry(event).DetailType; // 'box.saved'
 * ```
 */
export const toEntry = (event: EventEnvelope): BusEntry => ({
  Source: EVENT_SOURCE,
  DetailType: event.type,
  Detail: JSON.stringify(event),
});

/**
 * The size EventBridge counts for an entry: the UTF-8 bytes of Source, DetailType and Detail
 * (plus 14 for a Time and each Resource, which the service never sends).
 */
export const entrySize = (entry: BusEntry): number =>
  Buffer.byteLength(entry.Source) + Buffer.byteLength(entry.DetailType) + Buffer.byteLength(entry.Detail);

/**
 * Splits events, in order, into PutEvents calls of at most 10 entries and 256 KiB each. An event
 * too large for any call is a batch of its own: EventBridge refuses it, and the relay reports it
 * stuck rather than skipping it.
 *
 * @example
 * ```ts
 * batches(events).map((b) => b.length); // [10, 10, 3]
 * ```
 */
export const batches = (events: readonly EventEnvelope[]): EventEnvelope[][] => {
  const result: EventEnvelope[][] = [];
  let current: EventEnvelope[] = [];
  let bytes = 0;
  for (const event of events) {
    const size = entrySize(toEntry(event));
    if (current.length > 0 && (current.length === MAX_ENTRIES_PER_CALL || bytes + size > MAX_BYTES_PER_CALL)) {
      result.push(current);
      current = [];
      bytes = 0;
    }
    current.push(event);
    bytes += size;
  }
  if (current.length > 0) result.push(current);
  return result;
};
