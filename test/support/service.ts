import { randomBytes } from 'node:crypto';
import { Agent, request, type RequestOptions } from 'node:http';
import { signLocalToken, verifyLocalToken, type LocalTokenOptions } from '../../local/auth.ts';
import { startLocalService, type LocalService } from '../../local/stack.ts';
import { json } from '../../lib/db/types.ts';
import { createTestBackend } from './backend.ts';

/** The items of a box from quantities by item code, in the order given: `[{ item_code: 'SKU-A', quantity: 5 }]`. */
export const itemLines = (quantities: Record<string, number>) =>
  Object.entries(quantities).map(([item_code, quantity]) => ({ item_code, quantity }));

/** An ISO timestamp `minutes` before now, for a scan made earlier. */
export const minutesAgo = (minutes: number) => new Date(Date.now() - minutes * 60_000).toISOString();

export interface ApiResponse<T = any> {
  readonly status: number;
  readonly headers: Headers;
  readonly body: T;
}

export interface CallOptions {
  readonly body?: unknown;
  /** A raw body, sent as is (for malformed JSON, wrong content types...). */
  readonly rawBody?: string | Buffer;
  readonly token?: string | null;
  readonly headers?: Record<string, string>;
}

export interface TestService {
  readonly stack: LocalService;
  readonly kind: 'pglite' | 'postgres';
  /** Tokens for the usual callers. */
  readonly tokens: { readonly operator: string; readonly supervisor: string };
  token(
    user: string,
    groups: readonly string[],
    options?: Partial<Pick<LocalTokenOptions, 'expiresInSeconds' | 'now' | 'clientId' | 'tokenUse'>>,
  ): Promise<string>;
  /** Adds a box to the demo ERP plan: `plan('BOX-T1', { 'SKU-A': 5 })`. */
  plan(boxNo: string, items: Record<string, number>, order?: string): Promise<void>;
  /**
   * A box new to the ERP plan (10 SKU-A and 5 SKU-B unless `items` says otherwise), and a newly
   * registered open zongpai: `BOX-F0001` and `PLT-F0001`, then `…0002`.
   */
  freshBox(items?: Record<string, number>): Promise<{ box: string; zongpai: string }>;
  /** Saves a box with POST /v1/box: `saveBox('BOX-T1', 'PLT-T1', { 'SKU-A': 5 })`, its items in that order. */
  saveBox<T = any>(
    boxNo: string,
    zongpaiNo: string,
    items: Record<string, number>,
    options?: Omit<CallOptions, 'body' | 'rawBody'>,
  ): Promise<ApiResponse<T>>;
  call<T = any>(method: string, path: string, options?: CallOptions): Promise<ApiResponse<T>>;
  close(): Promise<void>;
}

/**
 * Starts the local service for one test file, exactly as `npm start` does but on an ephemeral
 * port and a throwaway database, with helpers to call it as a scanner would. `linguistic`: on
 * PostgreSQL, a database whose default collation is a language's, as Aurora's is.
 *
 * @example
 * ```ts
 * const service = await startTestService();
 * const res = await service.call('POST', '/v1/cargo/location', { body: { cargo_no: 'BOX-1001', location_code: 'A-01' } });
 * ```
 */
export const startTestService = async (
  options: { env?: Record<string, string>; linguistic?: boolean } = {},
): Promise<TestService> => {
  const { backend, kind, drop } = await createTestBackend({ serviceDatabase: true, linguistic: options.linguistic });
  const key = randomBytes(32);
  // Tests call faster than a scanner; the stage throttling itself is tested in test/local/gateway.test.ts.
  const stack = await startLocalService({
    backend,
    env: { ...process.env, ...options.env },
    verifyToken: (h) => verifyLocalToken(key, h),
    throttle: { rate: 10_000, burst: 10_000 },
  });
  const token = (
    user: string,
    groups: readonly string[],
    options: Partial<Pick<LocalTokenOptions, 'expiresInSeconds' | 'now' | 'clientId' | 'tokenUse'>> = {},
  ) => signLocalToken(key, { user, groups, ...options });
  const tokens = { operator: await token('olga', ['operator']), supervisor: await token('sam', ['supervisor']) };

  // Node's HTTP client with keep-alive: a scanner's connection is reused, and thousands of
  // requests (the hostile-input properties) cost no new connection each. Node's fetch opens a
  // new connection for every request once a DELETE with a body was sent (Node 24). An idle
  // connection is let go after 4 s, before the gateway's 5 s keep-alive timeout closes it under
  // a request about to be sent on it.
  const agent = new Agent({ keepAlive: true, timeout: 4_000 });
  const call = async <T>(method: string, path: string, options: CallOptions = {}): Promise<ApiResponse<T>> => {
    const headers: Record<string, string> = { ...options.headers };
    const bearer = options.token === undefined ? tokens.operator : options.token;
    if (bearer !== null) headers.authorization ??= `Bearer ${bearer}`;
    let body: string | Buffer | undefined = options.rawBody;
    if (options.body !== undefined) {
      body = JSON.stringify(options.body);
      headers['content-type'] ??= 'application/json';
    }
    if (body !== undefined) headers['content-length'] = String(Buffer.byteLength(body));
    // The URL as a browser sends it: parsed and serialised by the WHATWG URL rules.
    const res = await send(new URL(path, stack.url), { method, headers, agent }, body);
    let parsed: unknown = res.text;
    try {
      parsed = res.text === '' ? undefined : JSON.parse(res.text);
    } catch {
      // not JSON: leave the text for the assertion to show
    }
    return { status: res.status, headers: res.headers, body: parsed as T };
  };

  const plan = async (boxNo: string, items: Record<string, number>, order = 'SO-TEST') => {
    await stack.db.query(
      `INSERT INTO erp.demo_box_plan (box_no, order_no, customer_name, item_code, item_name, planned_quantity, unit)
       SELECT :box_no, :order_no, 'Test Customer', i.key, 'Item ' || i.key, i.value::integer, 'pcs' FROM json_each_text(:items) AS i`,
      { box_no: boxNo, order_no: order, items: json(items) },
    );
  };

  let boxes = 0;
  const freshBox = async (items: Record<string, number> = { 'SKU-A': 10, 'SKU-B': 5 }) => {
    boxes += 1;
    const box = `BOX-F${String(boxes).padStart(4, '0')}`;
    const zongpai = `PLT-F${String(boxes).padStart(4, '0')}`;
    await plan(box, items);
    const registered = await call('POST', '/v1/zongpai', { body: { zongpai_no: zongpai } });
    if (registered.status !== 201) {
      throw new Error(`registering ${zongpai} answered ${registered.status}: ${JSON.stringify(registered.body)}`);
    }
    return { box, zongpai };
  };

  const saveBox = <T>(
    boxNo: string,
    zongpaiNo: string,
    items: Record<string, number>,
    options: Omit<CallOptions, 'body' | 'rawBody'> = {},
  ) =>
    call<T>('POST', '/v1/box', { ...options, body: { box_no: boxNo, zongpai_no: zongpaiNo, items: itemLines(items) } });

  return {
    stack,
    kind,
    tokens,
    token,
    plan,
    freshBox,
    saveBox,
    call,
    close: async () => {
      agent.destroy();
      await stack.close();
      await drop();
    },
  };
};

/** One HTTP exchange: the status, the headers as fetch would give them, and the body as text. */
const send = (
  url: URL,
  options: RequestOptions,
  body: string | Buffer | undefined,
): Promise<{ status: number; headers: Headers; text: string }> =>
  new Promise((resolve, reject) => {
    const req = request(url, options, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('error', reject);
      res.on('end', () => {
        const headers = new Headers();
        for (let i = 0; i + 1 < res.rawHeaders.length; i += 2)
          headers.append(res.rawHeaders[i]!, res.rawHeaders[i + 1]!);
        resolve({ status: res.statusCode ?? 0, headers, text: Buffer.concat(chunks).toString('utf8') });
      });
    });
    req.on('error', reject);
    req.end(body);
  });
