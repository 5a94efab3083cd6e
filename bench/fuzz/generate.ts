import type { RouteDefinition } from '../../infra/routes.ts';

/**
 * Requests for the fuzz run, generated from the route declarations: each route's `example`
 * (a request that passes validation) sent as it is, with other codes of the same shape, or
 * mutated (wrong types, huge strings, unicode, odd headers and methods, malformed JSON), under
 * a token of each role or none. A seeded generator: the same seed gives the same requests.
 */

/** One generated request, and what was done to it (the report groups findings by it). */
export interface FuzzRequest {
  readonly route: string;
  readonly method: string;
  readonly path: string;
  readonly headers: Record<string, string>;
  readonly body?: string | Uint8Array;
  readonly input: string;
}

/** Bearer tokens by caller: one per role's group, and one of a user in no group. */
export type FuzzTokens = Readonly<Record<'operator' | 'supervisor' | 'integration' | 'nogroup', string>>;

/** mulberry32: small, fast and good enough to pick inputs. */
export const randomSource = (seed: number) => {
  let state = seed >>> 0;
  const next = (): number => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
  const int = (n: number): number => Math.floor(next() * n);
  const pick = <T>(list: readonly T[]): T => list[int(list.length)] as T;
  return { next, int, pick, chance: (p: number) => next() < p };
};
type Random = ReturnType<typeof randomSource>;

const UNICODE = [
  'BOX-１００１', // full-width digits
  'BOX-\u0130', // dotted capital I (case-maps to two letters)
  'plt-\u00df',
  '\u202eBOX-1001', // right-to-left override
  'BOX\u200b-1001', // zero-width space
  'BOX-1001\u0000',
  '📦-1001',
  'e\u0301', // a combining accent
  '\ud83d', // a lone surrogate
  '箱-1001',
  '\ufeffBOX-1001',
  ' BOX-1001 ',
  '\t\r\n',
];

/**
 * A long string: up to 300 000 characters in a body, up to 4 096 in a URL (an emoji's 12
 * encoded bytes each: 48 KB, three times Node's 16 KB header limit, so the 431 is still
 * reached; a URL of megabytes is reset while it is still being sent, answer or not).
 */
const hugeString = (random: Random, inUrl = false): string =>
  random
    .pick(['A', 'Z-', '9', '📦', 'é', '%'])
    .repeat(random.pick(inUrl ? [256, 1_024, 4_096] : [256, 4_096, 65_536, 300_000]));

/** A value of another kind than the example's, or a hostile one of the same. */
const hostileValue = (random: Random, like: unknown, inUrl = false): unknown => {
  switch (random.int(12)) {
    case 0:
      return null;
    case 1:
      return random.pick([0, -1, 1.5, 1e308, -0, 2 ** 63, Number.MAX_SAFE_INTEGER + 2]);
    case 2:
      return random.pick([true, false]);
    case 3:
      return [like, like];
    case 4:
      return { value: like };
    case 5:
      return hugeString(random, inUrl);
    case 6:
      return random.pick(UNICODE);
    case 7:
      return '';
    case 8:
      return random.pick(["' OR 1=1 --", '"; DROP TABLE cargo.box; --', '$1', ':cargo_no', '\\', '%00', '../..']);
    case 9:
      return typeof like === 'string' ? like.toLowerCase() : String(like);
    case 10:
      return random.pick(['2026-02-29T00:00:00Z', '0000-01-01T00:00:00Z', '9999-12-31T23:59:59.999Z', 'NaN']);
    default:
      return typeof like === 'number' ? -like : `${String(like)}${random.pick(UNICODE)}`;
  }
};

/** Another code of the example's shape: its digits replaced, so that requests reach different rows. */
const sameShape = (random: Random, value: string): string => value.replace(/\d/g, () => String(random.int(10)));

const varied = (random: Random, value: unknown): unknown => {
  if (typeof value === 'string') return sameShape(random, value);
  if (Array.isArray(value)) return value.map((v) => varied(random, v));
  if (value !== null && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, varied(random, v)]));
  return value;
};

/** The example body with one field (at any depth) changed, removed, or one added. */
const mutatedBody = (random: Random, body: unknown): unknown => {
  if (body === null || typeof body !== 'object' || random.chance(0.1)) return hostileValue(random, body);
  const copy: Record<string, unknown> = Array.isArray(body) ? { ...body } : { ...(body as Record<string, unknown>) };
  const keys = Object.keys(copy);
  const key = keys.length === 0 ? 'extra' : random.pick(keys);
  const roll = random.int(10);
  if (roll === 0) delete copy[key];
  else if (roll === 1) copy[random.pick(['extra', '__proto__', 'constructor', 'records', 'scaned_at'])] = 1;
  else if (roll <= 3 && copy[key] !== null && typeof copy[key] === 'object') copy[key] = mutatedBody(random, copy[key]);
  else if (roll === 4) copy.records = Array.from({ length: random.pick([0, 1, 501, 2_000]) }, () => body);
  else copy[key] = hostileValue(random, copy[key]);
  return Array.isArray(body) ? Object.values(copy) : copy;
};

const MALFORMED = ['{', '{"a":', '[1,]', "{'a':1}", '{"a":1}}', 'nul', '"unterminated', '{"a":1e99999}', '\u0000'];

const bodyOf = (random: Random, example: unknown): { text?: string | Uint8Array; input: string } => {
  const roll = random.int(20);
  if (roll < 7) return { text: JSON.stringify(varied(random, example ?? {})), input: 'valid body' };
  if (roll < 15)
    return { text: JSON.stringify(mutatedBody(random, varied(random, example ?? {}))), input: 'mutated body' };
  if (roll < 17) return { text: random.pick(MALFORMED), input: 'malformed JSON' };
  if (roll === 17)
    return { text: random.pick(['null', '[]', '"text"', '42', 'true', '{}']), input: 'JSON not an object' };
  if (roll === 18)
    return { text: new Uint8Array([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x3a, 0x31, 0x7d]), input: 'invalid UTF-8' };
  return { input: 'no body' };
};

const pathOf = (random: Random, route: RouteDefinition, mutate: boolean): string =>
  route.path.replace(/\{(\w+)\}/g, (_, name: string) => {
    const example = route.spec?.example.path?.[name] ?? 'X';
    const value =
      mutate && random.chance(0.5) ? String(hostileValue(random, example, true)) : sameShape(random, example);
    if (random.chance(0.05)) return random.pick(['%', '%zz', '%2F', '..', '%00']);
    try {
      return encodeURIComponent(value);
    } catch {
      return encodeURIComponent(example); // a lone surrogate: no URL carries it
    }
  });

const queryOf = (random: Random, route: RouteDefinition, mutate: boolean): string => {
  const example = route.spec?.example.query ?? {};
  const pairs: [string, string][] = Object.entries(example).map(([k, v]) => [k, sameShape(random, v)]);
  if (mutate) {
    const roll = random.int(6);
    const key = pairs.length === 0 ? 'limit' : random.pick(pairs)[0];
    if (roll === 0) pairs.push([key, 'again']);
    else if (roll === 1)
      pairs.push([random.pick(['cursor', 'unknown', 'limit', 'after']), String(hostileValue(random, '1', true))]);
    else if (roll === 2) pairs.splice(0, pairs.length);
    else if (roll === 3)
      pairs.push(['cursor', Buffer.from(String(hostileValue(random, 'x', true))).toString('base64url')]);
    else pairs.push([key, String(hostileValue(random, example[key] ?? '1', true))]);
  }
  if (pairs.length === 0) return '';
  const encode = (text: string) => {
    try {
      return encodeURIComponent(text);
    } catch {
      return '%ED%A0%BD'; // a lone surrogate as its (invalid) UTF-8 bytes
    }
  };
  return `?${pairs.map(([k, v]) => `${encode(k)}=${encode(v)}`).join('&')}`;
};

const CONTENT_TYPES = [
  'application/json',
  'application/json; charset=utf-8',
  'application/json; charset=latin1',
  'text/plain',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  'application/json; charset=',
  'APPLICATION/JSON',
];

const oddHeaders = (random: Random): Record<string, string> => {
  const headers: Record<string, string> = {};
  const count = random.int(3);
  for (let i = 0; i < count; i++) {
    const [name, values] = random.pick([
      ['accept-language', ['zh', 'zh-CN;q=0.9, en;q=0.8', '*', ';;;', 'x'.repeat(5_000), 'zh-Hant-TW']],
      ['idempotency-key', ['k', 'x'.repeat(300), ' ', 'key with space', 'ü-key', crypto.randomUUID()]],
      ['if-match', ['1', '"1"', 'W/"1"', '*', '-1', 'abc', '99999999999999999999']],
      ['content-encoding', ['gzip', 'br', 'identity']],
      ['x-forwarded-for', ['not-an-ip', '1.1.1.1, 2.2.2.2']],
      ['accept', ['text/html', '*/*', 'application/xml']],
    ] as const);
    headers[name] = random.pick(values);
  }
  return headers;
};

const ODD_METHODS = ['PUT', 'OPTIONS', 'GET', 'POST', 'PATCH', 'DELETE', 'PROPFIND'];

const authorization = (random: Random, tokens: FuzzTokens): { header?: string; input: string } => {
  const roll = random.int(20);
  if (roll < 13) {
    const role = random.pick(['operator', 'supervisor', 'integration', 'nogroup'] as const);
    return { header: `Bearer ${tokens[role]}`, input: `${role} token` };
  }
  if (roll < 16) return { input: 'no token' };
  const token = random.pick(Object.values(tokens));
  return {
    header: random.pick([
      `Bearer ${token.slice(0, -4)}AAAA`,
      `Basic ${token}`,
      'Bearer ',
      `Bearer ${token}.x`,
      `bearer ${token}`,
      'Bearer a.b.c',
    ]),
    input: 'bad token',
  };
};

/**
 * The `index`th request of a run: a route picked at random, its input valid (about a third),
 * mutated or hostile.
 *
 * @example
 * ```ts
 * const next = requestGenerator(routeTable('cargo'), tokens, 1);
 * const request = next();
 * ```
 */
export const requestGenerator = (routes: readonly RouteDefinition[], tokens: FuzzTokens, seed: number) => {
  const random = randomSource(seed);
  return (): FuzzRequest => {
    const route = random.pick(routes);
    const mutate = random.chance(0.6);
    const method = random.chance(0.05) ? random.pick(ODD_METHODS) : route.method;
    const auth = authorization(random, tokens);
    const headers: Record<string, string> = mutate ? oddHeaders(random) : {};
    if (auth.header !== undefined) headers.authorization = auth.header;
    const inputs = [auth.input, method === route.method ? undefined : `method ${method}`];
    let body: string | Uint8Array | undefined;
    if (method !== 'GET' && method !== 'OPTIONS') {
      const made = mutate
        ? bodyOf(random, route.spec?.example.body)
        : { text: JSON.stringify(varied(random, route.spec?.example.body ?? {})), input: 'valid body' };
      body = made.text;
      inputs.push(made.input);
      if (body !== undefined)
        headers['content-type'] = mutate && random.chance(0.15) ? random.pick(CONTENT_TYPES) : 'application/json';
    }
    const path = `${pathOf(random, route, mutate)}${queryOf(random, route, mutate && random.chance(0.5))}`;
    if (mutate) inputs.push('mutated path or query');
    return {
      route: `${route.method} ${route.path}`,
      method,
      path,
      headers,
      ...(body === undefined ? {} : { body }),
      input: inputs.filter((i) => i !== undefined).join(', '),
    };
  };
};
