import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { DataApiAction } from '../../infra/grants.ts';
import { checkAccess } from './access.ts';
import type { DataApiIdentity, DataApiTarget } from './access.ts';
import { DATA_API_CALL_TIMEOUT_MS, DEADLINE_SLACK_MS, type SqlBackend } from './backend.ts';
import {
  badRequest,
  databaseResuming,
  DataApiError,
  serviceUnavailable,
  statementTimeout,
  toDataApiError,
  unknownOperation,
} from './errors.ts';
import {
  batchExecuteStatement,
  beginTransaction,
  commitTransaction,
  executeStatement,
  rollbackTransaction,
} from './operations.ts';
import type { OperationContext } from './operations.ts';
import { TypeCatalog } from './pg-types.ts';
import { parseBatch, parseBegin, parseEnd, parseExecute } from './requests.ts';
import type { Body } from './requests.ts';
import { verifySigV4 } from './sigv4.ts';
import { DEFAULT_TRANSACTION_IDLE_MS, TransactionRegistry } from './transactions.ts';

export type DataApiOperation = DataApiAction;

/**
 * Failures to inject for tests of retry logic: `resuming` (DatabaseResumingException) and
 * `unavailable` (ServiceUnavailableError, HTTP 503) before the statement runs;
 * `timeout-after-commit` (StatementTimeoutException) after it ran and committed.
 */
export type DataApiFault = 'resuming' | 'unavailable' | 'timeout-after-commit';

export interface DataApiEmulator {
  /** Where to point `RDSDataClient`'s `endpoint`, e.g. `http://127.0.0.1:45123`. */
  readonly endpoint: string;
  readonly backend: SqlBackend;
  /** Calls received per operation since start or the last reset, failed ones included. */
  counters(): Record<DataApiOperation, number>;
  resetCounters(): void;
  /** The next `times` ExecuteStatement/BatchExecuteStatement calls fail with this fault. */
  injectFault(fault: DataApiFault, times?: number): void;
  /** Drops the injected faults that no call has consumed yet. */
  clearFaults(): void;
  /** Closes the HTTP server, rolls back open transactions, then closes the backend. */
  close(): Promise<void>;
}

export interface DataApiEmulatorOptions {
  readonly backend: SqlBackend;
  /** The cluster, secret and database it stands for: a call naming another is refused. */
  readonly target: DataApiTarget;
  /**
   * The callers it knows, by the access key they sign with (SigV4), and what each may call:
   * an unsigned call or an unknown key is UnrecognizedClientException, an ungranted operation
   * AccessDeniedException, as in AWS.
   */
  readonly identities: readonly DataApiIdentity[];
  /** 0 (the default) picks a free port. */
  readonly port?: number;
  /** Idle time after which an open transaction is rolled back; AWS uses 3 minutes. */
  readonly transactionIdleTimeoutMs?: number;
  /** How long an execute call may run before it is answered StatementTimeoutException; AWS uses 45 s. */
  readonly callTimeoutMs?: number;
}

/** The Data API's restJson1 routes (the SDK's `@http` traits). */
const ROUTES: Readonly<Record<string, DataApiOperation>> = {
  '/Execute': 'ExecuteStatement',
  '/BatchExecute': 'BatchExecuteStatement',
  '/BeginTransaction': 'BeginTransaction',
  '/CommitTransaction': 'CommitTransaction',
  '/RollbackTransaction': 'RollbackTransaction',
};

/**
 * How long past the call timeout a call waits for its cancelled statement to end before it is
 * answered anyway: a backend cancels within {@link DEADLINE_SLACK_MS} of the deadline, a
 * PostgreSQL server within milliseconds of that unless it is unreachable.
 */
const CANCEL_GRACE_MS = DEADLINE_SLACK_MS + 750;

/** The Data API refuses requests over 4 MiB. */
const MAX_REQUEST_BYTES = 4 * 1024 * 1024;

const zeroCounters = (): Record<DataApiOperation, number> => ({
  ExecuteStatement: 0,
  BatchExecuteStatement: 0,
  BeginTransaction: 0,
  CommitTransaction: 0,
  RollbackTransaction: 0,
});

const readRaw = async (request: IncomingMessage): Promise<Buffer> => {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    size += (chunk as Buffer).length;
    if (size > MAX_REQUEST_BYTES) throw badRequest('Request size exceeds the 4 MiB limit');
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
};

const parseBody = (raw: Buffer): Body => {
  const text = raw.toString('utf8');
  let body: unknown;
  try {
    body = text.trim() === '' ? {} : JSON.parse(text);
  } catch {
    throw badRequest('Could not parse request body into json: malformed JSON');
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    throw badRequest('Request body must be a JSON object');
  return body as Body;
};

const send = (response: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void => {
  if (response.headersSent || response.destroyed) return;
  const payload = JSON.stringify(body);
  response.writeHead(status, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(payload),
    'x-amzn-requestid': randomUUID(),
    ...headers,
  });
  response.end(payload);
};

const sendError = (response: ServerResponse, error: DataApiError): void =>
  send(response, error.statusCode, { message: error.message, ...error.members }, { 'x-amzn-errortype': error.type });

/**
 * Starts a local RDS Data API on `backend`, speaking the restJson1 protocol of the real
 * `RDSDataClient`.
 *
 * @example
 * ```ts
 * const target = { resourceArn: 'arn:aws:rds:local:000000000000:cluster:cargo', secretArn: 'arn:aws:secretsmanager:local:000000000000:secret:cargo', database: 'cargo' };
 * const me = { name: 'Tool', accessKeyId: 'AKIALOCALTOOL', secretAccessKey: randomUUID(), operations: ['ExecuteStatement'] as const };
 * const emulator = await startDataApiEmulator({ backend: await createPgliteBackend(), target, identities: [me] });
 * const client = new RDSDataClient({ endpoint: emulator.endpoint, region: 'us-east-1', credentials: me, maxAttempts: 1 });
 * await client.send(new ExecuteStatementCommand({ ...target, sql: 'SELECT 1' }));
 * await emulator.close();
 * ```
 */
export const startDataApiEmulator = async (options: DataApiEmulatorOptions): Promise<DataApiEmulator> => {
  const context: OperationContext = {
    backend: options.backend,
    transactions: new TransactionRegistry(options.transactionIdleTimeoutMs ?? DEFAULT_TRANSACTION_IDLE_MS),
    types: new TypeCatalog(),
    callTimeoutMs: options.callTimeoutMs ?? DATA_API_CALL_TIMEOUT_MS,
  };
  let counts = zeroCounters();
  const faults: DataApiFault[] = [];
  const inFlight = new Set<Promise<void>>();

  /**
   * Runs an execute call with the call timeout as its statement's deadline, answering
   * StatementTimeoutException once it has run that long. The backend cancels the statement at
   * the deadline (its changes rolled back), and the answer waits for that, so that nothing is
   * committed after a timeout was answered; only a backend that does not answer even then
   * (a server gone silent) is left behind after {@link CANCEL_GRACE_MS}. A call that asked
   * `continueAfterTimeout` is answered at the timeout and its statement goes on, as on AWS
   * (https://docs.aws.amazon.com/AmazonRDS/latest/AuroraUserGuide/data-api-timeouts.html).
   * PGlite runs in this process and holds it while a statement runs, so no timer fires
   * meanwhile: a call that outlasted the timeout is answered as timed out when it ends.
   */
  const withinCallTimeout = async <T>(
    run: (deadline: number) => Promise<T>,
    continueAfterTimeout: boolean,
  ): Promise<T> => {
    const started = Date.now();
    const outlasted = () => Date.now() - started >= context.callTimeoutMs;
    const work = run(continueAfterTimeout ? Infinity : started + context.callTimeoutMs);
    work.catch(() => undefined);
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<never>((_, reject) => {
      const waitMs = context.callTimeoutMs + (continueAfterTimeout ? 0 : CANCEL_GRACE_MS);
      timer = setTimeout(() => reject(statementTimeout()), waitMs);
    });
    try {
      const result = await Promise.race([work, timedOut]);
      if (outlasted()) throw statementTimeout();
      return result;
    } catch (error) {
      throw outlasted() ? statementTimeout() : error;
    } finally {
      clearTimeout(timer);
    }
  };

  /** Runs an execute call within the call timeout, under the next injected fault, if any. */
  const withFault = async <T>(run: (deadline: number) => Promise<T>, continueAfterTimeout = false): Promise<T> => {
    const fault = faults.shift();
    if (fault === 'resuming') throw databaseResuming();
    if (fault === 'unavailable') throw serviceUnavailable();
    const result = await withinCallTimeout(run, continueAfterTimeout);
    if (fault === 'timeout-after-commit') throw statementTimeout();
    return result;
  };

  const dispatch = async (operation: DataApiOperation, identity: DataApiIdentity, body: Body): Promise<unknown> => {
    /** The database user the call signs in as, once IAM and the secret allow it. */
    const signIn = (request: { readonly target: Parameters<typeof checkAccess>[2] }): string | undefined =>
      checkAccess(identity, operation, request.target, options.target);
    switch (operation) {
      case 'ExecuteStatement': {
        const request = parseExecute(body);
        const user = signIn(request);
        return withFault(
          (deadline) => executeStatement(context, request, user, deadline),
          request.continueAfterTimeout,
        );
      }
      case 'BatchExecuteStatement': {
        const request = parseBatch(body);
        const user = signIn(request);
        return withFault((deadline) => batchExecuteStatement(context, request, user, deadline));
      }
      case 'BeginTransaction':
        return beginTransaction(context, signIn(parseBegin(body)));
      case 'CommitTransaction': {
        const request = parseEnd(body);
        signIn(request);
        return commitTransaction(context, request.transactionId);
      }
      case 'RollbackTransaction': {
        const request = parseEnd(body);
        signIn(request);
        return rollbackTransaction(context, request.transactionId);
      }
    }
  };

  const identities = new Map(options.identities.map((identity) => [identity.accessKeyId, identity]));

  const handle = async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
    try {
      const path = (request.url ?? '/').split('?')[0] ?? '/';
      const operation = ROUTES[path];
      if (request.method !== 'POST' || operation === undefined) {
        request.resume();
        throw unknownOperation(request.method ?? '?', path);
      }
      counts[operation] += 1;
      const raw = await readRaw(request);
      const accessKeyId = verifySigV4(
        { method: request.method, url: request.url ?? '/', headers: request.headers, body: raw },
        (key) => identities.get(key)?.secretAccessKey,
      );
      send(response, 200, await dispatch(operation, identities.get(accessKeyId) as DataApiIdentity, parseBody(raw)));
    } catch (error) {
      sendError(response, toDataApiError(error));
    }
  };

  const server = createServer((request, response) => {
    const done = handle(request, response).finally(() => inFlight.delete(done));
    inFlight.add(done);
  });
  server.on('clientError', (_error, socket) => socket.destroy());
  // The SDK keeps sockets alive; closing them first (Node's default is 5 s) races its reuse
  // of an idle socket into ECONNRESET, a failure AWS does not produce.
  server.keepAliveTimeout = 120_000;
  server.headersTimeout = 125_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    // The loopback only: the emulator runs SQL for whoever holds a key, so nothing off this machine reaches it.
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  const address = server.address() as AddressInfo;
  const host = address.address;

  return {
    endpoint: `http://${host}:${address.port}`,
    backend: options.backend,
    counters: () => ({ ...counts }),
    resetCounters: () => {
      counts = zeroCounters();
    },
    injectFault: (fault, times = 1) => {
      for (let i = 0; i < times; i += 1) faults.push(fault);
    },
    clearFaults: () => {
      faults.length = 0;
    },
    close: async () => {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      // Roll back first: on PGlite, calls in flight may be waiting for an open transaction.
      await context.transactions.rollbackAll();
      await Promise.allSettled([...inFlight]);
      server.closeAllConnections();
      await closed;
      await options.backend.close();
    },
  };
};
