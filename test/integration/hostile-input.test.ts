import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadRoutes, type RouteDefinition } from '../../infra/routes.ts';
import type { RouteSpec } from '../../lib/http/route.ts';
import type { ApiResponse } from '../support/service.ts';
import { startTestService, type TestService } from '../support/service.ts';

const { routeSpecs } = await loadRoutes();

/**
 * Property-based attacks on every route: whatever arrives, the answer is a 4xx in the unified
 * body, nothing internal leaks, nothing is stored, and Object.prototype stays clean.
 * 10 800 generated requests per database backend.
 */
let service: TestService;
let before: Record<string, number>;
/** Thousands of HTTP round trips: generous, as CI shares two cores with the other test files. */
const FUZZ_TIMEOUT = 180_000;
const TABLES = ['location_record', 'location', 'zongpai', 'box', 'box_item', 'box_event', 'idempotency_key'];

const counts = async () => {
  const { rows } = await service.stack.db.query(
    TABLES.map((t) => `SELECT '${t}' AS t, count(*)::int AS n FROM cargo.${t}`).join(' UNION ALL '),
  );
  return Object.fromEntries(rows.map((r) => [r.t as string, r.n as number]));
};

beforeAll(async () => {
  service = await startTestService();
  // The world of the declared examples: their zongpais open, their box boxed and scanned once, so
  // a hostile value that passes validation reaches the domain rules.
  for (const zongpai_no of ['PLT-0001', 'PLT-0002', 'PLT-FUZZ'])
    expect((await service.call('POST', '/v1/zongpai', { body: { zongpai_no } })).status).toBe(201);
  expect(
    (await service.call('POST', '/v1/box/simple', { body: { box_no: 'BOX-1001', zongpai_no: 'PLT-0001' } })).status,
  ).toBe(201);
  expect(
    (await service.call('POST', '/v1/cargo/location', { body: { cargo_no: 'BOX-1001', location_code: 'A-01' } }))
      .status,
  ).toBe(201);
  before = await counts();
});
afterAll(async () => service?.close());

const LEAKS =
  /SQLState|ERROR:|stack|node_modules|\.ts:\d|cargo\.(box|zongpai|location_record|idempotency_key)|Exception|TypeError|undefined/;

const expectRefused = (res: ApiResponse) => {
  expect(res.status, JSON.stringify(res.body)).toBeGreaterThanOrEqual(400);
  expect(res.status, JSON.stringify(res.body)).toBeLessThan(500);
  expect(res.body).toEqual(
    expect.objectContaining({
      error_code: expect.any(String),
      message: expect.any(String),
      domain: expect.any(String),
    }),
  );
  expect(JSON.stringify(res.body)).not.toMatch(LEAKS);
};

/** Characters no code pattern admits, placed inside the value so trimming cannot remove them. */
const badChar = fc.constantFrom(
  "'",
  '"',
  ';',
  '%',
  '/',
  '<',
  '_',
  '.',
  '\u0000',
  '\u0007',
  '\u202e',
  'é',
  '漢',
  '🙂',
  '\\',
  '*',
);
const badCode = fc
  .tuple(fc.string({ maxLength: 40 }), badChar, fc.string({ maxLength: 40 }))
  .map(([a, c, b]) => `A${a}${c}${b}`);
const injection = fc.constantFrom(
  "'; DROP TABLE boxes; --",
  "BOX-1' OR '1'='1",
  '$$; SELECT pg_sleep(5); $$',
  '{"$ne": null}',
  '../../etc/passwd',
  '${7*7}',
  '<script>x</script>',
  ':box_no',
  '\\x00',
);
const notAString = fc.oneof(
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.array(fc.string(), { maxLength: 3 }),
  fc.dictionary(fc.string(), fc.string(), { maxKeys: 3 }),
);
const hostileCode = fc.oneof(
  badCode,
  injection,
  notAString,
  fc.constant(''),
  fc.string({ minLength: 33, maxLength: 3000 }).map((s) => `X${s}${'Z'.repeat(33)}`),
);
const hostileItemCode = fc.oneof(
  notAString,
  fc.constant('   '),
  fc.tuple(fc.string(), fc.constantFrom('\u0000', '\u0008', '\u001b', '\u200b')).map(([s, c]) => `A${s}${c}B`),
  fc.string({ minLength: 65, maxLength: 500 }).map((s) => `${'Q'.repeat(65)}${s}`),
);
const hostileQuantity = fc.oneof(
  fc.constantFrom(0, -1, 100_000, 1.5, Number.MAX_SAFE_INTEGER, -0.0001),
  fc.string(),
  fc.constant(null),
  fc.boolean(),
  fc.array(fc.integer(), { maxLength: 2 }),
);

/** Anything but one of the register's kinds. */
const hostileKind = fc.oneof(notAString, fc.constantFrom('', 'shelf', 'ROOF', 'SHELF ', 'DOCK;'), injection);
/**
 * Not `null` as the request sends it: a NaN or an infinity (fc.double) is written `null` in JSON,
 * which a nullable field takes as "none".
 */
const sentAsNull = (v: unknown) => JSON.stringify(v) === 'null';

/** A description no location may have: not a string, empty, not printable, or over 200 characters. */
const hostileDescription = fc.oneof(
  notAString.filter((v) => !sentAsNull(v)),
  fc.constant('   '),
  fc.tuple(fc.string(), fc.constantFrom('\u0000', '\u0008', '\u001b', '\u200b')).map(([s, c]) => `A${s}${c}B`),
  fc.string({ minLength: 201, maxLength: 500 }).map((s) => `${'D'.repeat(201)}${s}`),
);

/** A version the record is not at: the given numbers, one past what the database holds, or no number at all. */
const hostileVersion = (...numbers: number[]) =>
  fc.oneof(
    fc.constantFrom(...numbers, 2 ** 31, Number.MAX_SAFE_INTEGER),
    notAString.filter((v) => typeof v !== 'number'),
  );

/** A body field of a route and what the property puts there instead of its example's value. */
interface BodyAttack {
  readonly field: string;
  readonly value: fc.Arbitrary<unknown>;
  /** Send the field on its own rather than in the example body (a backlog is `{ records }` alone). */
  readonly alone?: true;
}

/** Query parameters attacked beside the example's own (those the example leaves out). */
interface Coverage {
  readonly body?: readonly BodyAttack[];
  readonly query?: readonly string[];
}

/**
 * What each declared route (functions/*.ts) is attacked with. Its path parameters and the query
 * parameters of its example are attacked without being listed; the body fields are listed here.
 * Every declared route has an entry and every entry is a declared route.
 */
const coverage: Readonly<Record<string, Coverage>> = {
  BoxEdit: {
    body: [
      { field: 'version', value: hostileVersion(0, -1, 1.5, 2, 99) },
      { field: 'zongpai_no', value: hostileCode },
      {
        field: 'items',
        value: fc.array(fc.record({ item_code: hostileItemCode, quantity: hostileQuantity }), { maxLength: 3 }),
      },
    ],
  },
  BoxHistory: {},
  BoxInfo: {},
  BoxLabel: {},
  BoxSave: {
    body: [
      { field: 'box_no', value: hostileCode },
      { field: 'zongpai_no', value: hostileCode },
      {
        field: 'items',
        value: fc.oneof(
          notAString,
          fc.constant([]),
          fc.array(fc.record({ item_code: hostileItemCode, quantity: fc.integer({ min: 1, max: 5 }) }), {
            minLength: 1,
            maxLength: 5,
          }),
          fc.array(fc.record({ item_code: fc.constant('SKU-TEA-250'), quantity: hostileQuantity }), {
            minLength: 1,
            maxLength: 3,
          }),
        ),
      },
      {
        field: 'items',
        value: fc.array(fc.record({ item_code: injection, quantity: fc.integer({ min: 1, max: 5 }) }), {
          minLength: 1,
          maxLength: 3,
        }),
      },
    ],
  },
  BoxSimpleSave: {
    body: [
      { field: 'box_no', value: hostileCode },
      { field: 'zongpai_no', value: hostileCode },
    ],
  },
  BoxUndo: {
    body: [{ field: 'version', value: hostileVersion(0, -5, 2.5, 7) }],
  },
  EventsList: {},
  LocationContent: { query: ['cursor'] },
  LocationGet: { query: ['cursor'] },
  LocationImport: {
    body: [
      {
        field: 'locations',
        value: fc.oneof(
          notAString,
          fc.constant([]),
          fc.array(fc.jsonValue({ maxDepth: 2 }), { maxLength: 5 }),
          fc.array(fc.record({ location_code: hostileCode, kind: fc.constant('SHELF') }), {
            minLength: 1,
            maxLength: 3,
          }),
          fc.array(fc.record({ location_code: fc.constant('A-01'), kind: hostileKind }), {
            minLength: 1,
            maxLength: 3,
          }),
        ),
        alone: true,
      },
    ],
  },
  LocationInfo: {},
  LocationList: { query: ['cursor', 'zone', 'blocked'] },
  LocationPut: {
    body: [
      { field: 'kind', value: hostileKind },
      { field: 'zone', value: hostileCode.filter((v) => !sentAsNull(v)) },
      { field: 'description', value: hostileDescription },
      { field: 'blocked', value: fc.oneof(fc.string(), fc.integer(), fc.constant(null)) },
      { field: 'version', value: hostileVersion(0, -1, 1.5, 2, 99) },
    ],
  },
  LocationRecord: {
    body: [
      { field: 'cargo_no', value: hostileCode },
      { field: 'location_code', value: hostileCode },
      { field: 'off_shelf', value: fc.oneof(fc.string(), fc.integer(), fc.constant(null)) },
      { field: 'scanned_at', value: fc.oneof(fc.string(), fc.integer(), fc.constant('2999-01-01T00:00:00Z')) },
      { field: 'device_id', value: fc.oneof(notAString, fc.constant(''), hostileItemCode) },
      {
        field: 'records',
        value: fc.oneof(notAString, fc.array(fc.jsonValue({ maxDepth: 2 }), { maxLength: 5 })),
        alone: true,
      },
    ],
  },
  LocationTransfer: { body: [{ field: 'to_location_code', value: hostileCode }] },
  LocationVoid: {
    body: [{ field: 'version', value: hostileVersion(0, -1, 1.5, 2, 99) }],
  },
  /** Takes no input: nothing to attack (its declaration has no schemas, checked below). */
  OpenApi: {},
  OrderGet: {},
  ZongpaiClose: {},
  ZongpaiGet: {},
  ZongpaiLabel: {},
  ZongpaiList: { query: ['cursor'] },
  ZongpaiPackingList: {},
  ZongpaiRegister: { body: [{ field: 'zongpai_no', value: hostileCode }] },
  ZongpaiReopen: {},
};

/** A declared route with its example request, as the gateway serves it. */
interface Baseline {
  readonly route: RouteDefinition;
  readonly spec: RouteSpec<any, any, any>;
  readonly token: string;
}

const baselines = (): Baseline[] =>
  service.stack.routes.map((route) => {
    if (route.spec === undefined) throw new Error(`${route.id} is served without a declaration`);
    return {
      route,
      spec: route.spec,
      token: route.access === 'supervisor' ? service.tokens.supervisor : service.tokens.operator,
    };
  });

/** The example's path with its parameters (encoded values) and query, one of them replaced by `replace`. */
const urlOf = (
  { route, spec }: Baseline,
  replace: { in: 'path' | 'query'; name: string; encoded: string } | undefined = undefined,
): string => {
  const value = (part: 'path' | 'query', name: string, example: string) =>
    replace?.in === part && replace.name === name ? replace.encoded : encodeURIComponent(example);
  const path = route.path.replace(/\{(\w+)\}/g, (_, name: string) =>
    value('path', name, spec.example.path?.[name] ?? ''),
  );
  const query = Object.entries(spec.example.query ?? {}).map(
    ([name, example]) => `${name}=${value('query', name, example)}`,
  );
  if (replace?.in === 'query' && !(replace.name in (spec.example.query ?? {})))
    query.push(`${replace.name}=${replace.encoded}`);
  return query.length === 0 ? path : `${path}?${query.join('&')}`;
};

describe('hostile input', () => {
  it('covers every declared route and only declared routes, each attacked through every input it declares', () => {
    const declared = routeSpecs.map((spec) => spec.id).sort();
    expect(Object.keys(coverage).sort(), 'the routes attacked here are the routes declared in functions/').toEqual(
      declared,
    );
    expect(service.stack.routes.map((r) => r.id).sort()).toEqual(declared);
    for (const { route, spec } of baselines()) {
      if (spec.example.body !== undefined)
        expect(
          coverage[route.id]?.body ?? [],
          `${route.id} takes a body but none of its fields is attacked`,
        ).not.toHaveLength(0);
      if (spec.schemas === undefined)
        expect(spec.example, `${route.id} declares no schemas, so it takes no input`).toEqual({});
    }
  });

  it(
    'refuses hostile field values on every route that takes a body (6 800 requests)',
    async () => {
      const cases = baselines().flatMap((baseline) =>
        (coverage[baseline.route.id]?.body ?? []).map((attack) => ({
          ...attack,
          baseline,
          url: urlOf(baseline),
          body: attack.alone ? {} : (baseline.spec.example.body as object),
        })),
      );
      await fc.assert(
        fc.asyncProperty(
          fc.constantFrom(...cases).chain((c) => c.value.map((v) => ({ ...c, body: { ...c.body, [c.field]: v } }))),
          async (c) => {
            expectRefused(
              await service.call(c.baseline.route.method, c.url, { body: c.body, token: c.baseline.token }),
            );
          },
        ),
        { numRuns: 6_800 },
      );
    },
    FUZZ_TIMEOUT,
  );

  it(
    'refuses arbitrary JSON, malformed JSON, wrong content types and polluting keys (2 000 requests)',
    async () => {
      const writes = baselines()
        .filter((b) => b.spec.example.body !== undefined)
        .map((b) => [b.route.method, urlOf(b)] as const);
      const arbitraryJson = fc
        .jsonValue({ maxDepth: 4 })
        .filter((v) => !(typeof v === 'object' && v !== null && !Array.isArray(v) && Object.keys(v).length === 0))
        .map((v) => ({ text: JSON.stringify(v), type: 'application/json' }));
      const malformed = fc
        .string({ minLength: 1 })
        .filter((s) => {
          try {
            JSON.parse(s);
            return false;
          } catch {
            return true;
          }
        })
        .map((text) => ({ text, type: 'application/json' }));
      const wrongType = fc
        .tuple(
          fc.constantFrom(
            'text/plain',
            'application/x-www-form-urlencoded',
            'multipart/form-data; boundary=x',
            'application/xml',
            '',
          ),
          fc.string({ minLength: 1 }),
        )
        .map(([type, text]) => ({ text, type }));
      const deep = fc
        .integer({ min: 100, max: 3000 })
        .map((depth) => ({ text: `${'['.repeat(depth)}${']'.repeat(depth)}`, type: 'application/json' }));
      const polluting = fc
        .constantFrom(
          '{"__proto__": {"polluted": true}, "cargo_no": "x"}',
          '{"constructor": {"prototype": {"polluted": true}}, "box_no": 5}',
          '{"records": [{"__proto__": {"polluted": true}, "cargo_no": "BOX-1", "location_code": "!"}]}',
        )
        .map((text) => ({ text, type: 'application/json' }));
      await fc.assert(
        fc.asyncProperty(
          fc.constantFrom(...writes),
          fc.oneof(arbitraryJson, malformed, wrongType, deep, polluting),
          async ([method, path], { text, type }) => {
            const headers: Record<string, string> = type === '' ? {} : { 'content-type': type };
            const res = await service.call(method, path, { rawBody: text, headers, token: service.tokens.supervisor });
            expectRefused(res);
            expect(({} as Record<string, unknown>).polluted).toBeUndefined();
          },
        ),
        { numRuns: 2_000 },
      );
    },
    FUZZ_TIMEOUT,
  );

  it(
    'refuses hostile path and query values on every parameter of every declared route (1 200 requests)',
    async () => {
      const encodings = fc.oneof(
        hostileCode.filter((v): v is string => typeof v === 'string' && v.length > 0).map((v) => encodeURIComponent(v)),
        fc.constantFrom('%', '%zz', '%E0%A4%A', '%00', '..%2F..', '%252F', 'BOX%20%20-1'),
      );
      // Every path parameter and query parameter of every declared route, the rest of the request its example.
      const targets = baselines().flatMap((baseline) => [
        ...[...baseline.route.path.matchAll(/\{(\w+)\}/g)].map((m) => ({
          baseline,
          in: 'path' as const,
          name: m[1] as string,
        })),
        ...[...Object.keys(baseline.spec.example.query ?? {}), ...(coverage[baseline.route.id]?.query ?? [])].map(
          (name) => ({ baseline, in: 'query' as const, name }),
        ),
      ]);
      await fc.assert(
        fc.asyncProperty(fc.constantFrom(...targets), encodings, async (target, encoded) => {
          const { route, spec, token } = target.baseline;
          expectRefused(
            await service.call(route.method, urlOf(target.baseline, { in: target.in, name: target.name, encoded }), {
              body: spec.example.body,
              token,
            }),
          );
        }),
        { numRuns: 1_200 },
      );
    },
    FUZZ_TIMEOUT,
  );

  it(
    'refuses edge dates, forged cursors, case-mapped letters, invalid UTF-8 and foreign charsets (800 requests)',
    async () => {
      const pad = (n: number, width: number) => String(n).padStart(width, '0');
      const commonYear = fc
        .integer({ min: 1, max: 9999 })
        .filter((y) => !(y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0)));
      const time = fc
        .tuple(fc.integer({ min: 0, max: 23 }), fc.integer({ min: 0, max: 59 }), fc.integer({ min: 0, max: 59 }))
        .map(([h, m, s]) => `${pad(h, 2)}:${pad(m, 2)}:${pad(s, 2)}`);
      const edgeDate = fc.oneof(
        time.map((t) => `0000-01-01T${t}Z`),
        fc
          .tuple(fc.integer({ min: 1, max: 12 }), fc.integer({ min: 1, max: 28 }), time)
          .map(([mo, d, t]) => `0000-${pad(mo, 2)}-${pad(d, 2)}T${t}Z`),
        fc.tuple(commonYear, time).map(([y, t]) => `${pad(y, 4)}-02-29T${t}Z`),
        fc.tuple(fc.integer({ min: 10_000, max: 275_760 }), time).map(([y, t]) => `${y}-01-01T${t}Z`),
        fc.tuple(fc.integer({ min: 10_000, max: 275_760 }), time).map(([y, t]) => `+${pad(y, 6)}-01-01T${t}Z`),
        fc
          .tuple(fc.integer({ min: 0, max: 59 }), fc.integer({ min: 1, max: 14 }))
          .map(([m, h]) => `0001-01-01T00:${pad(m, 2)}:00+${pad(h, 2)}:00`),
        fc
          .tuple(
            fc.constantFrom('+24:00', '+99:99', '-25:00', '+14:60', '+1400', 'z+01:00'),
            fc.integer({ min: 2000, max: 2025 }),
          )
          .map(([offset, y]) => `${y}-06-01T08:00:00${offset}`),
        fc.tuple(fc.integer({ min: 2026, max: 9999 }), time).map(([y, t]) => `${y + 1}-12-31T${t}Z`),
      );
      const cursorText = fc
        .oneof(
          fc
            .bigInt({ min: 9_223_372_036_854_775_808n, max: 9_999_999_999_999_999_999n })
            .map((id) => `2026-01-01T00:00:00.000Z|${id}`),
          time.map((t) => `0000-03-01T${t}.000Z|1`),
          fc.tuple(commonYear, time).map(([y, t]) => `${pad(y, 4)}-02-29T${t}.000Z|1`),
          fc
            .tuple(fc.integer({ min: 13, max: 99 }), fc.integer({ min: 32, max: 99 }))
            .map(([mo, d]) => `2026-${pad(mo, 2)}-${pad(d, 2)}T00:00:00.000Z|1`),
        )
        .map((text) => Buffer.from(text, 'utf8').toString('base64url'));
      const caseMapped = fc
        .tuple(
          fc.constantFrom(
            '\u00DF',
            '\u0131',
            '\u017F',
            '\uFB00',
            '\uFB01',
            '\uFB02',
            '\uFB03',
            '\uFB04',
            '\uFB05',
            '\uFB06',
            '\u0130',
            '\u1E9E',
            '\u212A',
            '\u00B5',
            '\u0149',
          ),
          fc.stringMatching(/^[a-z0-9-]{0,6}$/),
        )
        .map(([letter, rest]) => `plt-${letter}${rest}`);
      const invalidUtf8 = fc.constantFrom(
        [0xff],
        [0xfe],
        [0xc3, 0x28],
        [0xc0, 0xaf],
        [0xe2, 0x82],
        [0xed, 0xa0, 0x80],
        [0xf8, 0x88, 0x80, 0x80, 0x80],
        [0x80],
      );
      const charset = fc.constantFrom(
        'iso-8859-1',
        'latin1',
        'gbk',
        'gb2312',
        'big5',
        'shift_jis',
        'utf-16',
        'utf-16le',
        'utf-32',
        'utf-7',
        'us-ascii',
        '"iso-8859-1"',
        '',
        'utf-8; charset=gbk',
      );
      const scanBody = { cargo_no: 'BOX-1001', location_code: 'A-01' };

      type Attack = {
        method: string;
        path: string;
        body?: unknown;
        rawBody?: Buffer | string;
        headers?: Record<string, string>;
      };
      const attacks: fc.Arbitrary<Attack> = fc.oneof(
        edgeDate.map((scanned_at) => ({
          method: 'POST',
          path: '/v1/cargo/location',
          body: { ...scanBody, scanned_at },
        })),
        edgeDate.map((scanned_at) => ({
          method: 'POST',
          path: '/v1/cargo/location',
          body: { records: [scanBody, { ...scanBody, scanned_at }] },
        })),
        cursorText.map((cursor) => ({ method: 'GET', path: `/v1/cargo/location/BOX-1002?cursor=${cursor}` })),
        fc.tuple(caseMapped, fc.constantFrom('cargo_no', 'location_code')).map(([code, field]) => ({
          method: 'POST',
          path: '/v1/cargo/location',
          body: { ...scanBody, [field]: code },
        })),
        caseMapped.map((zongpai_no) => ({ method: 'POST', path: '/v1/zongpai', body: { zongpai_no } })),
        caseMapped.map((zongpai_no) => ({
          method: 'POST',
          path: '/v1/box/simple',
          body: { box_no: 'BOX-1001', zongpai_no },
        })),
        caseMapped.map((box_no) => ({ method: 'GET', path: `/v1/box/info?box_no=${encodeURIComponent(box_no)}` })),
        fc
          .tuple(invalidUtf8, fc.constantFrom('/v1/cargo/location', '/v1/zongpai', '/v1/box/simple'))
          .map(([bytes, path]) => ({
            method: 'POST',
            path,
            headers: { 'content-type': 'application/json' },
            rawBody: Buffer.concat([
              Buffer.from('{"cargo_no":"BOX-1001","location_code":"A-0'),
              Buffer.from(bytes),
              Buffer.from('","zongpai_no":"PLT-FUZZ","box_no":"BOX-1003"}'),
            ]),
          })),
        fc.tuple(charset, fc.constantFrom('/v1/cargo/location', '/v1/zongpai')).map(([name, path]) => ({
          method: 'POST',
          path,
          headers: { 'content-type': `application/json; charset=${name}` },
          rawBody: JSON.stringify({ ...scanBody, zongpai_no: 'PLT-CHARSET' }),
        })),
      );
      await fc.assert(
        fc.asyncProperty(attacks, async (attack) => {
          expectRefused(
            await service.call(attack.method, attack.path, {
              body: attack.body,
              rawBody: attack.rawBody,
              headers: attack.headers,
              token: service.tokens.supervisor,
            }),
          );
        }),
        { numRuns: 800 },
      );
    },
    FUZZ_TIMEOUT,
  );

  it('stored nothing while refusing all of that', async () => {
    expect(await counts()).toEqual(before);
  });
});
