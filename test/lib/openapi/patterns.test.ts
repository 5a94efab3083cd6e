import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { loadRoutes } from '../../../infra/routes.ts';
import { loadConfig } from '../../../lib/config.ts';
import { makeScanSchemas } from '../../../lib/location/schemas.ts';
import { makeFields } from '../../../lib/rules/fields.ts';
import { trimScan } from '../../../lib/contract/scanned-codes.ts';

const { apiDocument, routeSpecs } = await loadRoutes();

const config = loadConfig({});
const document: unknown = JSON.parse(apiDocument(config));
const fields = makeFields(config);
const { scan } = makeScanSchemas(config, fields);

/** Every `pattern` in the document, once each, with the places it appears. */
const patternsOf = (node: unknown, at = '#', found = new Map<string, string[]>()): Map<string, string[]> => {
  if (Array.isArray(node)) node.forEach((item, i) => patternsOf(item, `${at}/${i}`, found));
  else if (node !== null && typeof node === 'object') {
    const parameter = 'in' in node && 'name' in node ? `/${String(node.name)}` : '';
    for (const [key, value] of Object.entries(node)) {
      if (key === 'pattern' && typeof value === 'string') found.set(value, [...(found.get(value) ?? []), at]);
      else patternsOf(value, `${at}${parameter}/${key}`, found);
    }
  }
  return found;
};
const patterns = [...patternsOf(document)].map(([pattern, places]) => ({ pattern, at: places[0], places }));

/** Every string value of the routes' declared examples (path, query, body). */
const exampleStrings = (node: unknown): string[] =>
  typeof node === 'string'
    ? [node]
    : node !== null && typeof node === 'object'
      ? Object.values(node).flatMap(exampleStrings)
      : [];

/** Printable text the service accepts in device_id, item_code and order_no. */
const PRINTABLE = [
  'PDA-7',
  'p',
  'C',
  '{',
  '}',
  '{p}',
  '\\p{C}',
  'PDA-{C}-p',
  '茶叶-250',
  '仓库一号扫描枪',
  '📦',
  'a😀b',
  '𠀀𠀁',
  'Ünïcödé ñ',
  'SKU 250',
];
/** What the printable fields accept, and values of the other fields (codes, times, headers, cursors). */
const ACCEPTED = [
  ...PRINTABLE,
  'BOX-1001',
  'A-01',
  '000123456000123452',
  '2026-11-24T08:00:00Z',
  '2026-11-24T08:00:00.123+08:00',
  'W/"3"',
  '"3"',
  '12',
  'eyJjIjoiQk9YLTEwMDEifQ',
  'key-!~',
];
const REFUSED = [
  '',
  '\u0000',
  'A\u0001B',
  '\t',
  'PDA\n7',
  '\u007F',
  '\u0085',
  '\u00AD',
  '\u200B',
  '\u202E',
  '\uFEFFSKU-1',
  '\uE000',
  '👨\u200D👩',
];
/** Refused by the service; the document's patterns name no surrogate (see PRINTABLE_PATTERN). */
const LONE_SURROGATES = ['\uD83D', '\uDE00', 'a\uD83Db', '\uDE00\uD83D'];
const CORPUS = [
  ...ACCEPTED,
  ...REFUSED,
  ...LONE_SURROGATES,
  ...routeSpecs.flatMap((spec) => exampleStrings(spec.example)),
];

/** A printable field of the document, compiled as a client without Unicode mode would. */
const printableInDocument = (path: string, flags: string): RegExp => {
  const pattern = patterns.find(({ places }) =>
    places.some((at) => at.includes(`/${path}/`) || at.endsWith(`/${path}`)),
  )?.pattern;
  if (pattern === undefined) throw new Error(`no pattern at ${path}`);
  return new RegExp(pattern, flags);
};

/** A string of any UTF-16 code units: well-formed pairs, lone surrogates, controls, BMP and astral characters. */
const anyText = fc.oneof(
  fc.string({ unit: fc.integer({ min: 0, max: 0xffff }).map((unit) => String.fromCharCode(unit)) }),
  fc.string({ unit: fc.integer({ min: 0, max: 0x10ffff }).map((point) => String.fromCodePoint(point)) }),
  fc.string({ unit: fc.constantFrom('p', 'C', '{', '}', '茶', '😀', '\uD83D', '\uDE00', '\u0000', '\u200B') }),
);

describe('the patterns of the OpenAPI document', () => {
  it('are found: the identifiers, the headers, the cursors and the printable fields', () => {
    const where = patterns.flatMap(({ places }) => places).join('\n');
    expect(where).toMatch(/device_id/);
    expect(where).toMatch(/item_code/);
    expect(where).toMatch(/order_no/);
    expect(patterns.length).toBeGreaterThan(5);
  });

  it.each(patterns)(
    '$pattern compiles with and without the u flag and answers the same on every sample',
    ({ pattern }) => {
      const plain = new RegExp(pattern);
      const unicode = new RegExp(pattern, 'u');
      const differ = CORPUS.filter((sample) => plain.test(sample) !== unicode.test(sample));
      expect(differ).toEqual([]);
    },
  );

  it.each(patterns)('$pattern answers the same with and without the u flag on any text', ({ pattern }) => {
    const plain = new RegExp(pattern);
    const unicode = new RegExp(pattern, 'u');
    fc.assert(fc.property(anyText, (sample) => plain.test(sample) === unicode.test(sample)));
  });
});

describe('the printable fields (device_id, item_code, order_no) in the document', () => {
  const fieldsByPath = [
    [
      'device_id',
      (text: string) => scan.safeParse({ cargo_no: 'BOX-1001', location_code: 'A-01', device_id: text }).success,
    ],
    ['item_code', (text: string) => fields.itemCode.safeParse(text).success],
    ['order_no', (text: string) => fields.orderNo.safeParse(text).success],
  ] as const;

  it.each(fieldsByPath)('%s: a client without Unicode mode accepts p, C, {, }, Chinese text and emoji', (path) => {
    const plain = printableInDocument(path, '');
    expect(PRINTABLE.filter((sample) => !plain.test(sample))).toEqual([]);
  });

  it.each(fieldsByPath)(
    '%s: refuses controls, format and private-use characters and empty text, as the service does',
    (path, accepts) => {
      const plain = printableInDocument(path, '');
      const unicode = printableInDocument(path, 'u');
      expect(REFUSED.filter((sample) => plain.test(sample) || unicode.test(sample))).toEqual([]);
      expect([...REFUSED, ...LONE_SURROGATES].filter(accepts)).toEqual([]);
    },
  );

  it.each(fieldsByPath)(
    '%s: accepts every value the service accepts, with and without Unicode mode',
    (path, accepts) => {
      const plain = printableInDocument(path, '');
      const unicode = printableInDocument(path, 'u');
      fc.assert(
        // What the service trims (scanner padding) is not part of the value the pattern states.
        fc.property(
          anyText,
          (sample) => trimScan(sample) !== sample || !accepts(sample) || (plain.test(sample) && unicode.test(sample)),
        ),
      );
      for (const sample of PRINTABLE) expect(accepts(sample)).toBe(true);
    },
  );

  it('refuses what the service refuses among the characters of the Basic Multilingual Plane, bar the unassigned ones and the surrogates', () => {
    const plain = printableInDocument('item_code', '');
    const wrong: string[] = [];
    for (let unit = 0; unit <= 0xffff; unit += 1) {
      const character = String.fromCharCode(unit);
      const refusedByService = /[\p{Cc}\p{Cf}\p{Co}]/u.test(character);
      if (plain.test(character) === refusedByService) wrong.push(unit.toString(16));
    }
    expect(wrong).toEqual([]);
  });
});
