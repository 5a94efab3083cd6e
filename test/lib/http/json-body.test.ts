import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { AppError } from '../../../lib/errors/app-error.ts';
import type { ServiceEvent } from '../../../lib/http/event.ts';
import { denotesInteger, InexactNumber, jsonBody } from '../../../lib/http/json-body.ts';

const run = (body: string | null, contentType: string | undefined, isBase64Encoded = false) => {
  const event = {
    body,
    isBase64Encoded,
    headers: contentType === undefined ? {} : { 'content-type': contentType },
  } as unknown as ServiceEvent;
  const before = jsonBody({ maxBytes: 1024 }).before as (request: { event: ServiceEvent }) => void;
  before({ event });
  return event.state?.json;
};

const codeOf = (fn: () => unknown) => {
  try {
    fn();
    return 'ok';
  } catch (error) {
    return error instanceof AppError ? error.code : 'crash';
  }
};

describe('JSON body middleware', () => {
  it('parses a JSON body, also with a charset and a +json media type', () => {
    expect(run('{"a":1}', 'application/json; charset=utf-8')).toEqual({ a: 1 });
    expect(run('[1]', 'application/vnd.cargo+json')).toEqual([1]);
    expect(run(Buffer.from('{"b":2}').toString('base64'), 'application/json', true)).toEqual({ b: 2 });
  });

  it('leaves a request without a body alone', () => {
    expect(run(null, undefined)).toBeUndefined();
    expect(run('', 'text/plain')).toBeUndefined();
  });

  it('answers 415, 413 and 400 MALFORMED_JSON as the SPEC says', () => {
    expect(codeOf(() => run('{"a":1}', 'text/plain'))).toBe('UNSUPPORTED_MEDIA_TYPE');
    expect(codeOf(() => run('{"a":1}', undefined))).toBe('UNSUPPORTED_MEDIA_TYPE');
    expect(codeOf(() => run(`"${'x'.repeat(2000)}"`, 'application/json'))).toBe('PAYLOAD_TOO_LARGE');
    expect(codeOf(() => run('{"a":', 'application/json'))).toBe('MALFORMED_JSON');
  });

  it('refuses a charset other than UTF-8 with UNSUPPORTED_MEDIA_TYPE', () => {
    for (const type of [
      'application/json; charset=iso-8859-1',
      'application/json;charset=latin1',
      'application/json; charset="utf-16"',
      'application/json; charset=gbk',
      'application/json; charset=',
      'application/json; charset=utf-8; charset=gbk',
    ]) {
      expect(
        codeOf(() => run('{"a":1}', type)),
        type,
      ).toBe('UNSUPPORTED_MEDIA_TYPE');
    }
  });

  it('accepts UTF-8 named in any case, quoted or not, and other parameters', () => {
    for (const type of [
      'application/json; charset=UTF-8',
      'application/json;charset="utf-8"',
      'application/json; version=2',
      'application/json; charset=utf8',
    ]) {
      expect(run('{"a":1}', type), type).toEqual({ a: 1 });
    }
  });

  it('refuses a body that is not valid UTF-8 with MALFORMED_JSON instead of storing U+FFFD', () => {
    const bytes = Buffer.concat([
      Buffer.from('{"cargo_no":"BOX-'),
      Buffer.from([0xff, 0xfe]),
      Buffer.from('","location_code":"A-01"}'),
    ]);
    expect(codeOf(() => run(bytes.toString('base64'), 'application/json', true))).toBe('MALFORMED_JSON');
    // API Gateway hands a text body to the function as a string: undecodable bytes arrive as U+FFFD.
    expect(codeOf(() => run(bytes.toString('utf8'), 'application/json'))).toBe('MALFORMED_JSON');
    expect(codeOf(() => run(Buffer.from([0x22, 0xc3, 0x28, 0x22]).toString('base64'), 'application/json', true))).toBe(
      'MALFORMED_JSON',
    );
  });

  it('keeps a replacement character the client escaped on purpose for the field rules to judge', () => {
    expect(run('{"a":"\\ufffd"}', 'application/json')).toEqual({ a: '\ufffd' });
  });

  it('stands a marker in for a number JavaScript would round to an integer, and keeps every other number', () => {
    const parsed = run('{"a":5.0000000000000001,"b":[1e-400],"c":5.0,"d":500e-2,"e":1.5,"f":-0}', 'application/json');
    expect(parsed).toEqual({
      a: new InexactNumber('5.0000000000000001'),
      b: [new InexactNumber('1e-400')],
      c: 5,
      d: 5,
      e: 1.5,
      f: -0,
    });
  });

  it.each([
    ['5', true],
    ['5.000', true],
    ['0.5e1', true],
    ['500E-2', true],
    ['-12e+3', true],
    ['5.0000000000000001', false],
    ['4.00000000000000000001e0', false],
    ['1e-400', false],
    ['0.05e1', false],
  ])('reads %s as an integer: %s', (source, integer) => {
    expect(denotesInteger(source)).toBe(integer);
  });

  it('refuses keys that could reach Object.prototype, and a key given twice, with VALIDATION_ERROR', () => {
    for (const body of [
      '{"__proto__":{"polluted":1},"ok":true}',
      '{"ok":true,"constructor":{"prototype":{"polluted":1}}}',
      '{"a":[{"prototype":1}]}',
      '{"a":1,"a":1}',
      '{"a":{"b":1,"\\u0062":2}}',
    ])
      expect(
        codeOf(() => run(body, 'application/json')),
        body,
      ).toBe('VALIDATION_ERROR');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('never throws anything but a SPEC error, whatever the body and content type', () => {
    fc.assert(
      fc.property(
        fc.oneof(fc.string(), fc.json(), fc.string({ unit: 'binary' })),
        fc.option(fc.oneof(fc.constant('application/json'), fc.string())),
        fc.boolean(),
        (body, type, base64) => {
          expect(['ok', 'UNSUPPORTED_MEDIA_TYPE', 'PAYLOAD_TOO_LARGE', 'MALFORMED_JSON', 'VALIDATION_ERROR']).toContain(
            codeOf(() => run(body, type ?? undefined, base64)),
          );
        },
      ),
      { numRuns: 2_000 },
    );
  });
});
