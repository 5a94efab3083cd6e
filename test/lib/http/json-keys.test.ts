import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { repeatedOrReservedKey } from '../../../lib/http/json-keys.ts';

describe('keys a JSON body cannot be read by', () => {
  it.each([
    ['{"a":1,"a":2}', { object: [], key: 'a', kind: 'repeated' }],
    ['{"a":1,"\\u0061":2}', { object: [], key: 'a', kind: 'repeated' }],
    ['{"r":[{"x":1},{"x":1,"y":{"z":0,"z":0}}]}', { object: ['r', 1, 'y'], key: 'z', kind: 'repeated' }],
    ['{"zongpai_no":"PLT-P001","constructor":5}', { object: [], key: 'constructor', kind: 'reserved' }],
    ['[{"__proto__":{}}]', { object: [0], key: '__proto__', kind: 'reserved' }],
    ['{"a":{"\\u0070rototype":1}}', { object: ['a'], key: 'prototype', kind: 'reserved' }],
  ])('finds the first in %s', (text, problem) => {
    expect(repeatedOrReservedKey(text)).toEqual(problem);
  });

  it.each([
    '{"a":"a","b":"\\"a\\":1,\\"a\\":"}',
    '{"a":{"b":1},"b":{"a":1}}',
    '[{"a":1},{"a":1}]',
    '{"s":"\\\\","t":"{\\"x\\":1,\\"x\\":2}"}',
    '{"constructorX":1,"proto":2,"values":["__proto__","constructor"]}',
    '"a"',
    '[]',
  ])('finds none in %s', (text) => {
    expect(repeatedOrReservedKey(text)).toBeUndefined();
  });

  it('agrees with JSON.parse on every JSON value written without repeated keys', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const text = JSON.stringify(value);
        const reserved = /"(__proto__|constructor|prototype)":/.test(text);
        expect(repeatedOrReservedKey(text)?.kind).toBe(reserved ? 'reserved' : undefined);
      }),
      { numRuns: 2_000 },
    );
  });

  it('walks a 256 KiB body of 500 scans in a few milliseconds', () => {
    const scan = (i: number) => ({
      cargo_no: `BOX-${i}`,
      location_code: 'A-01',
      device_id: 'x'.repeat(400),
      note: 'a\\"b',
    });
    const text = JSON.stringify({ records: Array.from({ length: 500 }, (_, i) => scan(i)) });
    expect(text.length).toBeGreaterThan(200_000);
    const started = performance.now();
    for (let i = 0; i < 10; i += 1) expect(repeatedOrReservedKey(text)).toBeUndefined();
    expect((performance.now() - started) / 10).toBeLessThan(20);
  });
});
