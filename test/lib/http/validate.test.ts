import * as z from 'zod/mini';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../../lib/config.ts';
import { BOX_VERSION, requestVersion } from '../../../lib/http/if-match.ts';
import { AppError } from '../../../lib/errors/app-error.ts';
import { fieldPath, quoteValue, toProblems } from '../../../lib/http/validate.ts';
import { renderReason } from '../../../lib/errors/reasons.ts';
import { makeFieldCodes, makeFields } from '../../../lib/rules/fields.ts';

const config = loadConfig({});
const fields = makeFields(config);
const codes = makeFieldCodes(config);

const problemsOf = (schema: z.ZodMiniType, input: unknown) => {
  const result = schema.safeParse(input);
  return result.success ? [] : toProblems(result.error.issues, input, codes).map((p) => [p.field, p.code]);
};

describe('field errors map to the SPEC codes', () => {
  const scan = z.object({ cargo_no: fields.cargoNo, location_code: fields.locationCode });
  const box = z.object({
    box_no: fields.boxNo,
    items: z.array(z.object({ item_code: fields.itemCode, quantity: fields.quantity })),
  });

  it('names each field by its own code, wherever it is nested', () => {
    expect(
      problemsOf(box, {
        box_no: 'x',
        items: [
          { item_code: 'A', quantity: 0 },
          { item_code: '', quantity: 1 },
        ],
      }),
    ).toEqual([
      ['box_no', 'INVALID_BOX_NO'],
      ['items[0].quantity', 'INVALID_QUANTITY'],
      ['items[1].item_code', 'INVALID_ITEM_CODE'],
    ]);
  });

  it('uses the field code for a wrong type or a missing field too', () => {
    expect(problemsOf(scan, { cargo_no: 42 })).toEqual([
      ['cargo_no', 'INVALID_BOX_NO'],
      ['location_code', 'INVALID_LOCATION_CODE'],
    ]);
  });

  it('lists a field once, however many of its checks fail', () => {
    expect(problemsOf(box, { box_no: 'BOX-1', items: [{ item_code: 'A', quantity: 2 ** 53 + 1 }] })).toEqual([
      ['items[0].quantity', 'INVALID_QUANTITY'],
    ]);
  });

  it('falls back to VALIDATION_ERROR for fields without a SPEC code', () => {
    expect(problemsOf(z.object({ off_shelf: z.boolean() }), { off_shelf: 'yes' })).toEqual([
      ['off_shelf', 'VALIDATION_ERROR'],
    ]);
  });

  it('words each reason as a sentence: the article of the type, the bound of a number, singular and plural', () => {
    const reasonsOf = (schema: z.ZodMiniType, input: unknown) => {
      const result = schema.safeParse(input);
      return result.success
        ? []
        : toProblems(result.error.issues, input, codes).map((p) => renderReason(p.params, 'en'));
    };
    expect(reasonsOf(z.object({ body: z.object({}) }), { body: 1 })).toEqual(['must be an object']);
    expect(reasonsOf(z.object({ n: z.int() }), { n: 1.5 })).toEqual(['must be an integer']);
    expect(reasonsOf(z.object({ s: z.string() }), { s: 1 })).toEqual(['must be a string']);
    expect(reasonsOf(z.object({ n: z.int().check(z.maximum(9)) }), { n: 10 })).toEqual(['must be at most 9']);
    expect(reasonsOf(z.object({ n: z.int().check(z.minimum(1)) }), { n: 0 })).toEqual(['must be at least 1']);
    expect(reasonsOf(z.object({ a: z.array(z.int()).check(z.minLength(1)) }), { a: [] })).toEqual([
      'must have at least 1 entry',
    ]);
    expect(reasonsOf(z.object({ a: z.array(z.int()).check(z.maxLength(2)) }), { a: [1, 2, 3] })).toEqual([
      'must have at most 2 entries',
    ]);
    expect(reasonsOf(z.object({ s: z.string().check(z.maxLength(1)) }), { s: 'ab' })).toEqual([
      'must have at most 1 character',
    ]);
  });

  it('quotes what the client sent, shortened, with control and format characters escaped', () => {
    expect(quoteValue({ a: [{ b: 'x\u0000y' }] }, ['a', 0, 'b'])).toBe('x\\u0000y');
    expect(quoteValue({ a: '\u202eBOX-1001\u200b' }, ['a'])).toBe('\\u202eBOX-1001\\u200b');
    expect(quoteValue({ a: 'BOX-1001\r\n' }, ['a'])).toBe('BOX-1001');
    expect(quoteValue({ a: 'z'.repeat(100) }, ['a'])?.length).toBe(40);
    expect(quoteValue({ a: { nested: true } }, ['a'])).toBeUndefined();
    expect(fieldPath(undefined, ['records', 3, 'location_code'])).toBe('records[3].location_code');
  });

  it('shortens a value by whole characters, never leaving half of one', () => {
    const quoted = quoteValue({ a: '😀'.repeat(41) }, ['a']);
    expect(quoted).toBe(`${'😀'.repeat(39)}…`);
    expect(quoted).not.toMatch(/[\ud800-\udfff]/u);
    expect(quoteValue({ a: 'x\ud83d' }, ['a'])).toBe('x\\ud83d');
  });
});

describe('the expected version of an edit or undo', () => {
  const expectedVersion = (body: number | undefined, header: string | undefined) =>
    requestVersion(BOX_VERSION, body, header);

  it.each([
    [3, undefined, 3],
    [undefined, '4', 4],
    [undefined, '"5"', 5],
    [undefined, 'W/"6"', 6],
    [7, '"7"', 7],
  ])('body %s and If-Match %s give %s', (body, header, version) => {
    expect(expectedVersion(body, header)).toBe(version);
  });

  it.each([
    [undefined, undefined],
    [1, '"2"'],
    [undefined, 'abc'],
    [undefined, '"0"'],
  ])('body %s with If-Match %s is a 400', (body, header) => {
    expect(() => expectedVersion(body, header)).toThrow(AppError);
  });
});
