import { describe, expect, it } from 'vitest';
import { answerBody } from '../../bench/support/service.ts';

/** The benchmarks read every answer of the emulated gateway: JSON as JSON, a label as the text it is. */
describe('the benchmarks’ reading of an answer (bench/support/service.ts)', () => {
  it('reads a JSON answer as JSON', () => {
    expect(answerBody('application/json; charset=utf-8', '{"error_code":"BOX_NOT_FOUND"}')).toEqual({
      error_code: 'BOX_NOT_FOUND',
    });
  });

  it('reads a ZPL or SVG label as its text', () => {
    expect(answerBody('text/plain; charset=utf-8', '^XA\n^CI28\n^XZ')).toBe('^XA\n^CI28\n^XZ');
    expect(answerBody('image/svg+xml', '<svg/>')).toBe('<svg/>');
  });

  it('reads an empty answer as none', () => {
    expect(answerBody(null, '')).toBeUndefined();
  });
});
