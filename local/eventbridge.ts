import { randomUUID } from 'node:crypto';
import { appendFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { verifySigV4 } from './data-api/sigv4.ts';

/**
 * A local stand-in for EventBridge's PutEvents, the one operation the event relay uses, that the
 * real `@aws-sdk/client-eventbridge` talks to: the JSON 1.1 protocol (`X-Amz-Target:
 * AWSEvents.PutEvents`), SigV4 signatures checked, only the bus it stands for, and PutEvents' own
 * limits (1 to 10 entries, 256 KiB, a Detail that is a JSON object). Every event it accepts is
 * appended, as the event a rule's target receives, to a JSON-lines file.
 */

/** A caller it knows; `publisher` says whether its role may call events:PutEvents on the bus. */
export interface EventBridgeIdentity {
  readonly name: string;
  readonly accessKeyId: string;
  readonly secretAccessKey: string;
  readonly publisher: boolean;
}

export interface EventBridgeStandInOptions {
  /** The bus it stands for; an entry naming another bus is denied, as the relay's IAM policy would. */
  readonly busName: string;
  readonly identities: readonly EventBridgeIdentity[];
  /** Where accepted events are appended, one JSON object a line; unset keeps them in memory only. */
  readonly file?: string;
  readonly region?: string;
  readonly port?: number;
}

/** An event as a rule's target receives it. */
export interface DeliveredEvent {
  readonly version: '0';
  readonly id: string;
  readonly 'detail-type': string;
  readonly source: string;
  readonly account: string;
  readonly time: string;
  readonly region: string;
  readonly resources: readonly string[];
  readonly detail: unknown;
}

export interface EntryFault {
  readonly select: (detail: unknown, index: number) => boolean;
  /** @default 'InternalFailure' */
  readonly errorCode?: string;
  /** @default 1 */
  readonly calls?: number;
}

export interface EventBridgeStandIn {
  /** Where to point `EventBridgeClient`'s `endpoint`. */
  readonly endpoint: string;
  readonly busArn: string;
  /** The events accepted since start (the last 10 000), oldest first. */
  received(): readonly DeliveredEvent[];
  /** PutEvents calls answered, refused ones included. */
  calls(): number;
  /** In the next `calls` PutEvents calls, the entries `select` picks (by detail and position) fail with `errorCode`: a partial failure. */
  injectEntryFault(fault: EntryFault): void;
  close(): Promise<void>;
}

const ACCOUNT = '000000000000';
const MAX_ENTRIES = 10;
const MAX_BYTES = 256 * 1024;
const KEPT = 10_000;

class ServiceError extends Error {
  constructor(
    readonly type: string,
    message: string,
  ) {
    super(message);
  }
}

interface RequestEntry {
  readonly Source?: unknown;
  readonly DetailType?: unknown;
  readonly Detail?: unknown;
  readonly EventBusName?: unknown;
  readonly Resources?: unknown;
  readonly Time?: unknown;
}

type EntryOutcome = { EventId: string } | { ErrorCode: string; ErrorMessage: string };

const readBody = async (request: IncomingMessage): Promise<Buffer> => {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
};

const send = (response: ServerResponse, status: number, body: unknown) => {
  const text = JSON.stringify(body);
  response.writeHead(status, {
    'content-type': 'application/x-amz-json-1.1',
    'x-amzn-requestid': randomUUID(),
    'content-length': Buffer.byteLength(text),
  });
  response.end(text);
};

const text = (value: unknown): string => (typeof value === 'string' ? value : '');

/** EventBridge's size of an entry: Time (14), Source, DetailType, Detail, each Resource. */
const entrySize = (entry: RequestEntry): number =>
  (entry.Time === undefined ? 0 : 14) +
  Buffer.byteLength(text(entry.Source)) +
  Buffer.byteLength(text(entry.DetailType)) +
  Buffer.byteLength(text(entry.Detail)) +
  (Array.isArray(entry.Resources)
    ? entry.Resources.reduce((sum: number, r: unknown) => sum + Buffer.byteLength(text(r)), 0)
    : 0);

const detailOf = (detail: string): unknown => {
  try {
    const parsed = JSON.parse(detail) as unknown;
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? parsed : undefined;
  } catch {
    return undefined;
  }
};

/** The per-entry checks of PutEvents: a failed entry is reported in the answer, the others still go out. */
const checkEntry = (entry: RequestEntry): { ErrorCode: string; ErrorMessage: string } | undefined => {
  for (const member of ['Source', 'DetailType', 'Detail'] as const) {
    if (text(entry[member]) === '')
      return {
        ErrorCode: 'InvalidArgument',
        ErrorMessage: `Parameter ${member} is not valid. Reason: ${member} is a required argument.`,
      };
  }
  if (text(entry.Source).startsWith('aws.'))
    return { ErrorCode: 'NotAuthorizedForSourceException', ErrorMessage: 'Not authorized for the source.' };
  if (detailOf(text(entry.Detail)) === undefined)
    return { ErrorCode: 'MalformedDetail', ErrorMessage: 'Detail is malformed.' };
  return undefined;
};

/**
 * Starts the stand-in on a free loopback port.
 *
 * @example
 * ```ts
 * const bus = await startEventBridgeStandIn({ busName: 'cargo-events', identities: [relay], file: '.data/events.jsonl' });
 * new EventBridgeClient({ endpoint: bus.endpoint });
 * ```
 */
export const startEventBridgeStandIn = async (options: EventBridgeStandInOptions): Promise<EventBridgeStandIn> => {
  const region = options.region ?? 'us-east-1';
  const busArn = `arn:aws:events:${region}:${ACCOUNT}:event-bus/${options.busName}`;
  const identities = new Map(options.identities.map((identity) => [identity.accessKeyId, identity]));
  const received: DeliveredEvent[] = [];
  const faults: { select: EntryFault['select']; errorCode: string; calls: number }[] = [];
  let calls = 0;

  const putEvents = (
    caller: EventBridgeIdentity,
    body: { Entries?: unknown },
  ): { FailedEntryCount: number; Entries: EntryOutcome[] } => {
    const entries = body.Entries;
    if (!Array.isArray(entries) || entries.length < 1 || entries.length > MAX_ENTRIES) {
      const problem =
        Array.isArray(entries) && entries.length > MAX_ENTRIES
          ? 'less than or equal to 10'
          : 'greater than or equal to 1';
      throw new ServiceError(
        'ValidationException',
        `1 validation error detected: Value at 'entries' failed to satisfy constraint: Member must have length ${problem}`,
      );
    }
    const typed = entries as RequestEntry[];
    for (const entry of typed) {
      const bus = text(entry.EventBusName) || 'default';
      // The relay's policy allows events:PutEvents on its bus only: IAM denies the whole call.
      if (!caller.publisher || (bus !== options.busName && bus !== busArn)) {
        const resource = bus.startsWith('arn:') ? bus : `arn:aws:events:${region}:${ACCOUNT}:event-bus/${bus}`;
        throw new ServiceError(
          'AccessDeniedException',
          `User: arn:aws:sts::${ACCOUNT}:assumed-role/${caller.name}/${caller.name} is not authorized to perform: events:PutEvents on resource: ${resource} because no identity-based policy allows the events:PutEvents action`,
        );
      }
    }
    if (typed.reduce((sum, entry) => sum + entrySize(entry), 0) > MAX_BYTES) {
      throw new ServiceError('ValidationException', 'Total size of the entries in the request is over the limit.');
    }
    const fault = faults[0];
    if (fault !== undefined && (fault.calls -= 1) <= 0) faults.shift();
    const outcomes = typed.map((entry, index): EntryOutcome => {
      const refused = checkEntry(entry);
      if (refused !== undefined) return refused;
      if (fault?.select(detailOf(text(entry.Detail)), index) === true)
        return { ErrorCode: fault.errorCode, ErrorMessage: `Injected ${fault.errorCode}` };
      const event: DeliveredEvent = {
        version: '0',
        id: randomUUID(),
        'detail-type': text(entry.DetailType),
        source: text(entry.Source),
        account: ACCOUNT,
        time: new Date().toISOString().replace(/\.\d{3}Z$/, 'Z'),
        region,
        resources: Array.isArray(entry.Resources) ? (entry.Resources as string[]) : [],
        detail: detailOf(text(entry.Detail)),
      };
      received.push(event);
      if (received.length > KEPT) received.shift();
      if (options.file !== undefined) appendFileSync(options.file, `${JSON.stringify(event)}\n`);
      return { EventId: event.id };
    });
    return { FailedEntryCount: outcomes.filter((outcome) => 'ErrorCode' in outcome).length, Entries: outcomes };
  };

  const server = createServer((request, response) => {
    void (async () => {
      const raw = await readBody(request);
      calls += 1;
      try {
        let caller: EventBridgeIdentity | undefined;
        try {
          const key = verifySigV4(
            { method: request.method ?? 'POST', url: request.url ?? '/', headers: request.headers, body: raw },
            (id) => identities.get(id)?.secretAccessKey,
          );
          caller = identities.get(key);
        } catch (error) {
          throw new ServiceError((error as Error).name, (error as Error).message);
        }
        if (request.method !== 'POST' || request.headers['x-amz-target'] !== 'AWSEvents.PutEvents') {
          throw new ServiceError(
            'UnknownOperationException',
            'The operation is not supported by this stand-in: it offers PutEvents only.',
          );
        }
        let body: { Entries?: unknown };
        try {
          body = JSON.parse(raw.toString('utf8')) as { Entries?: unknown };
        } catch {
          throw new ServiceError('SerializationException', 'The request body is not valid JSON.');
        }
        send(response, 200, putEvents(caller!, body));
      } catch (error) {
        const { type, message } =
          error instanceof ServiceError ? error : new ServiceError('InternalException', 'An internal error occurred');
        send(response, type === 'InternalException' ? 500 : 400, { __type: type, message });
      }
    })();
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    busArn,
    received: () => [...received],
    calls: () => calls,
    injectEntryFault: ({ select, errorCode = 'InternalFailure', calls: times = 1 }) =>
      void faults.push({ select, errorCode, calls: times }),
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
};
