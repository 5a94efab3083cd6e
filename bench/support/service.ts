import { randomBytes } from 'node:crypto';
import { signLocalToken, verifyLocalToken } from '../../local/auth.ts';
import type { SqlBackend } from '../../local/data-api/backend.ts';
import { startLocalService, type LocalService } from '../../local/stack.ts';

export interface BenchRequest {
  readonly method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  readonly path: string;
  readonly body?: unknown;
  readonly headers?: Readonly<Record<string, string>>;
  /** Who calls: an operator (default) or a supervisor. */
  readonly as?: 'operator' | 'supervisor';
}

export interface BenchResponse {
  readonly status: number;
  readonly body: any;
  /** Client-side latency: HTTP to the emulated gateway, the handler, the Data API emulator, PostgreSQL. */
  readonly ms: number;
}

export interface BenchService {
  readonly stack: LocalService;
  call(request: BenchRequest): Promise<BenchResponse>;
  close(): Promise<void>;
}

/**
 * An answer's body as a client reads it: JSON when the answer says it is JSON, otherwise its text
 * (a ZPL or SVG label); none when it is empty.
 *
 * @example
 * ```ts
 * answerBody('application/json', '{"a":1}'); // { a: 1 }
 * ```
 */
export const answerBody = (contentType: string | null, text: string): unknown => {
  if (text === '') return undefined;
  return /^application\/(?:[\w.+-]+\+)?json\b/i.test(contentType ?? '') ? JSON.parse(text) : text;
};

/**
 * The local stack as `npm start` runs it (emulated API Gateway v1, the unchanged handlers, the
 * Data API emulator) on an ephemeral port, with an operator's and a supervisor's token.
 *
 * @example
 * ```ts
 * const service = await startBenchService(backend);
 * const { status, ms } = await service.call({ method: 'GET', path: '/v1/box/info?box_no=BOX-1001' });
 * ```
 */
export const startBenchService = async (backend: SqlBackend): Promise<BenchService> => {
  const key = randomBytes(32);
  // Benchmarks count calls, not the stage throttling.
  // As in the tests: handlers log each refused request; the bench measures answers, not logging.
  const env = { POWERTOOLS_LOG_LEVEL: 'SILENT', ...process.env };
  const stack = await startLocalService({
    backend,
    env,
    verifyToken: (header) => verifyLocalToken(key, header),
    throttle: { rate: 100_000, burst: 100_000 },
  });
  const tokens = {
    operator: await signLocalToken(key, { user: 'olga', groups: ['operator'] }),
    supervisor: await signLocalToken(key, { user: 'sam', groups: ['operator', 'supervisor'] }),
  };
  const call = async (request: BenchRequest): Promise<BenchResponse> => {
    const headers: Record<string, string> = {
      authorization: `Bearer ${tokens[request.as ?? 'operator']}`,
      ...request.headers,
    };
    if (request.body !== undefined) headers['content-type'] = 'application/json';
    const started = performance.now();
    const res = await fetch(`${stack.url}${request.path}`, {
      method: request.method,
      headers,
      ...(request.body === undefined ? {} : { body: JSON.stringify(request.body) }),
    });
    const text = await res.text();
    const ms = performance.now() - started;
    return { status: res.status, body: answerBody(res.headers.get('content-type'), text), ms };
  };
  return { stack, call, close: () => stack.close() };
};
