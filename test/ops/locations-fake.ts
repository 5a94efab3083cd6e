import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { jwtVerify } from 'jose';
import type { components } from '../../generated/api-types.ts';
import { errorCatalogue } from '../../lib/errors/catalogue.ts';

/**
 * A stand-in for the two register routes `npm run locations` calls, as the SPEC states them
 * (The location register, Errors, Retries, Limits): `POST /v1/{prefix}/locations` takes 1-500
 * locations, all valid or none stored (400 naming each bad index), a body of 256 KiB at most,
 * supervisors only, a keyed retry replays the first answer and another body under the same key is
 * 422 IDEMPOTENCY_KEY_REUSED; `GET /v1/{prefix}/locations?limit=&cursor=` lists the register by
 * code, `limit` 1-100 (default 20). Tokens are checked with the local signing key.
 */
/** A registered location as the register answers it (the API document's `RegisteredLocation`). */
export type Stored = components['schemas']['RegisteredLocation'];

export interface FakeRegister {
  readonly url: string;
  readonly locations: Map<string, Stored>;
  /** Every POST in order: its key and how many locations it carried. */
  readonly posts: { key: string | undefined; count: number; status: number }[];
  readonly gets: string[];
  /** Answers the next this many POSTs with 503 DATABASE_UNAVAILABLE and `Retry-After: 0`. */
  busy: number;
  /** Codes that are cargo (a box or a zongpai): a batch naming one is 422 LOCATION_IS_CARGO. */
  readonly cargo: Set<string>;
  close(): Promise<void>;
}

const KINDS: readonly string[] = ['SHELF', 'STAGING', 'DOCK', 'FLOOR', 'QUARANTINE'];
const CODE = /^[A-Z0-9-]{2,32}$/;
const ZONE = /^[A-Z0-9-]{1,32}$/;
const FIELDS = new Set(['location_code', 'kind', 'zone', 'description', 'blocked']);
const normalise = (v: string) => v.replace(/^[ \t\r\n]+|[ \t\r\n]+$/g, '').replace(/[a-z]+/g, (s) => s.toUpperCase());
const sorted = (_k: string, v: unknown): unknown =>
  v === null || typeof v !== 'object' || Array.isArray(v) ? v : Object.fromEntries(Object.entries(v).sort());

type Answer = { status: number; body: unknown; headers?: Record<string, string> };
const error = (status: number, error_code: string, message: string, domain: string, details?: unknown): Answer => ({
  status,
  body: { error_code, message, domain, request_id: 'fake', ...(details === undefined ? {} : { details }) },
});

interface Detail {
  field: string;
  error_code: string;
  message: string;
}

/** The checks of one location (as for PUT without a version); its normalised value. */
const check = (
  raw: unknown,
  i: number,
  details: Detail[],
): Omit<Stored, 'version' | 'registered_at' | 'changed_at'> => {
  const field = (name: string, code: string, message: string) =>
    details.push({ field: `locations[${i}].${name}`, error_code: code, message: `locations[${i}].${name} ${message}` });
  const o = (typeof raw === 'object' && raw !== null && !Array.isArray(raw) ? raw : {}) as Record<string, unknown>;
  for (const name of Object.keys(o)) if (!FIELDS.has(name)) field(name, 'VALIDATION_ERROR', 'is not a field');
  const code = typeof o.location_code === 'string' ? normalise(o.location_code) : '';
  if (!CODE.test(code)) field('location_code', 'INVALID_LOCATION_CODE', "must be 2-32 characters of A-Z, 0-9 and '-'");
  if (typeof o.kind !== 'string' || !KINDS.includes(o.kind)) field('kind', 'VALIDATION_ERROR', 'is not a kind');
  const zone = o.zone === undefined || o.zone === null ? null : typeof o.zone === 'string' ? normalise(o.zone) : '';
  if (zone !== null && !ZONE.test(zone)) field('zone', 'VALIDATION_ERROR', 'must be 1-32 of A-Z, 0-9 and -');
  const d = o.description;
  if (d !== undefined && d !== null && (typeof d !== 'string' || !/^[^\p{C}]{0,200}$/u.test(d) || [...d].length > 200))
    field('description', 'VALIDATION_ERROR', 'must be at most 200 printable characters');
  if (o.blocked !== undefined && typeof o.blocked !== 'boolean')
    field('blocked', 'VALIDATION_ERROR', 'must be a boolean');
  const kind = String(o.kind) as Stored['kind'];
  return {
    location_code: code,
    kind,
    off_shelf: kind !== 'SHELF',
    zone,
    description: typeof d === 'string' && d !== '' ? d : null,
    blocked: o.blocked === true,
  };
};

export const startFakeRegister = async (options: {
  signingKey: Uint8Array;
  prefix?: string;
}): Promise<FakeRegister> => {
  const root = `/v1/${options.prefix ?? 'cargo'}/locations`;
  const locations = new Map<string, Stored>();
  const keys = new Map<string, { hash: string; answer: Answer }>();
  const fake = {
    url: '',
    locations,
    posts: [] as FakeRegister['posts'],
    gets: [] as string[],
    busy: 0,
    cargo: new Set<string>(),
    close: (): Promise<void> => Promise.resolve(),
  };

  const caller = async (req: IncomingMessage): Promise<{ user: string; groups: string[] } | undefined> => {
    const token = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
    if (token === undefined) return undefined;
    try {
      const { payload } = await jwtVerify(token, options.signingKey);
      if (payload.token_use !== 'id') return undefined;
      return { user: String(payload['cognito:username']), groups: (payload['cognito:groups'] as string[]) ?? [] };
    } catch {
      return undefined;
    }
  };

  const post = (text: string): Answer => {
    if (Buffer.byteLength(text) > 256 * 1024)
      return error(413, 'PAYLOAD_TOO_LARGE', 'The body is too large', 'request');
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      return error(400, 'MALFORMED_JSON', 'The body is not JSON', 'request');
    }
    const list = (body as { locations?: unknown }).locations;
    if (!Array.isArray(list) || list.length < 1 || list.length > 500)
      return error(400, 'VALIDATION_ERROR', 'locations must be a list of 1-500', 'request');
    const details: Detail[] = [];
    const wanted = list.map((raw, i) => check(raw, i, details));
    wanted.forEach((w, i) => {
      if (wanted.findIndex((o) => o.location_code === w.location_code) !== i)
        details.push({
          field: `locations[${i}].location_code`,
          error_code: 'VALIDATION_ERROR',
          message: `locations[${i}].location_code is given twice`,
        });
    });
    if (details.length > 0) return error(400, 'VALIDATION_ERROR', 'The request is not valid', 'request', details);
    // As the service answers: each cargo code a detail, its message naming its place in the batch.
    const cargo = wanted.flatMap((w, i) => {
      if (!fake.cargo.has(w.location_code)) return [];
      const at = { field: `locations[${i}].location_code`, value: w.location_code };
      return [
        { field: at.field, error_code: 'LOCATION_IS_CARGO', message: errorCatalogue.LOCATION_IS_CARGO.message.en(at) },
      ];
    });
    const [first] = cargo;
    if (first !== undefined) return error(422, 'LOCATION_IS_CARGO', first.message, 'location', cargo);
    const counts = { created: 0, changed: 0, unchanged: 0 };
    const now = new Date().toISOString();
    for (const w of wanted) {
      const held = locations.get(w.location_code);
      if (held === undefined) {
        counts.created += 1;
        locations.set(w.location_code, { ...w, version: 1, registered_at: now, changed_at: now });
      } else if (
        held.kind === w.kind &&
        held.zone === w.zone &&
        held.description === w.description &&
        held.blocked === w.blocked
      ) {
        counts.unchanged += 1;
      } else {
        counts.changed += 1;
        locations.set(w.location_code, {
          ...w,
          version: held.version + 1,
          registered_at: held.registered_at,
          changed_at: now,
        });
      }
    }
    return { status: 200, body: counts };
  };

  const list = (query: URLSearchParams): Answer => {
    const limit = Number(query.get('limit') ?? '20');
    if (!Number.isInteger(limit) || limit < 1 || limit > 100)
      return error(400, 'VALIDATION_ERROR', 'limit must be 1-100', 'request');
    const after = query.has('cursor') ? Buffer.from(query.get('cursor') as string, 'base64url').toString() : '';
    const codes = [...locations.keys()].sort().filter((c) => c > after);
    const page = codes.slice(0, limit).map((c) => locations.get(c) as Stored);
    const next = codes.length > limit ? Buffer.from(page.at(-1)?.location_code as string).toString('base64url') : null;
    return { status: 200, body: { locations: page, next_cursor: next } };
  };

  const answer = async (req: IncomingMessage, text: string): Promise<Answer> => {
    const url = new URL(req.url ?? '/', 'http://fake');
    if (url.pathname !== root || (req.method !== 'GET' && req.method !== 'POST'))
      return error(404, 'ROUTE_NOT_FOUND', 'No such route', 'request');
    const who = await caller(req);
    if (who === undefined) return error(401, 'UNAUTHORIZED', 'Unauthorized', 'auth');
    if (req.method === 'GET') {
      fake.gets.push(url.search);
      return list(url.searchParams);
    }
    const key = req.headers['idempotency-key'] as string | undefined;
    const count = (() => {
      try {
        return (JSON.parse(text) as { locations: unknown[] }).locations.length;
      } catch {
        return 0;
      }
    })();
    const record = (a: Answer) => (fake.posts.push({ key, count, status: a.status }), a);
    if (!who.groups.includes('supervisor')) return record(error(403, 'FORBIDDEN', 'Supervisors only', 'auth'));
    if (fake.busy > 0) {
      fake.busy -= 1;
      return record({
        ...error(503, 'DATABASE_UNAVAILABLE', 'The database is starting or busy', 'system'),
        headers: { 'Retry-After': '0' },
      });
    }
    if (key === undefined) return record(post(text));
    let hash: string;
    try {
      hash = createHash('sha256')
        .update(JSON.stringify(JSON.parse(text), sorted))
        .digest('hex');
    } catch {
      return record(post(text));
    }
    const scoped = `${who.user}/${key}`;
    const prior = keys.get(scoped);
    if (prior !== undefined)
      return record(
        prior.hash === hash
          ? prior.answer
          : error(422, 'IDEMPOTENCY_KEY_REUSED', 'The key was used for another request', 'request'),
      );
    const first = post(text);
    if (first.status === 200) keys.set(scoped, { hash, answer: first });
    return record(first);
  };

  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      void answer(req, Buffer.concat(chunks).toString('utf8')).then((a) => {
        res.writeHead(a.status, { 'Content-Type': 'application/json', ...a.headers });
        res.end(JSON.stringify(a.body));
      });
    });
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  fake.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  fake.close = () => new Promise<void>((done) => server.close(() => done()));
  return fake;
};
