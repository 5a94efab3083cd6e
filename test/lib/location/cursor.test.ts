import { describe, expect, it } from 'vitest';
import { AppError } from '../../../lib/errors/app-error.ts';
import { decodeCursor, encodeCursor } from '../../../lib/location/cursor.ts';

const raw = (text: string) => Buffer.from(text, 'utf8').toString('base64url');

const codeOf = (text: string) => {
  try {
    decodeCursor(text);
    return 'ok';
  } catch (error) {
    return error instanceof AppError ? error.code : 'crash';
  }
};

describe('history cursor', () => {
  it('reads back every cursor it issued', () => {
    for (const cursor of [
      { at: '2026-11-21T08:00:00.000Z', id: '42' },
      { at: '2024-02-29T23:59:59.999Z', id: '9223372036854775807' },
      { at: '0001-01-01T00:00:00.000Z', id: '1' },
    ]) {
      expect(decodeCursor(encodeCursor(cursor))).toEqual(cursor);
    }
  });

  it('reads back a cursor after an entry ordered before the year 1, its time with its era as PostgreSQL reads it', () => {
    expect(decodeCursor(encodeCursor({ at: '0000-12-31T23:56:00.000Z', id: '7' }))).toEqual({
      at: '0001-12-31T23:56:00.000Z BC',
      id: '7',
    });
    expect(decodeCursor(encodeCursor({ at: '-000001-02-28T00:00:00.000Z', id: '8' }))).toEqual({
      at: '0002-02-28T00:00:00.000Z BC',
      id: '8',
    });
    expect(codeOf(raw('0001-02-29T00:00:00.000Z BC|1'))).toBe('ok');
  });

  it('refuses a time before 1 AD that PostgreSQL cannot hold with VALIDATION_ERROR', () => {
    for (const at of [
      '0000-06-01T00:00:00.000Z BC',
      '0002-02-29T00:00:00.000Z BC',
      '4714-11-23T23:59:59.999Z BC',
      '0001-12-31T23:56:00.000ZBC',
    ]) {
      expect(codeOf(raw(`${at}|1`)), at).toBe('VALIDATION_ERROR');
    }
    expect(codeOf(raw('4714-11-24T00:00:00.000Z BC|1'))).toBe('ok');
  });

  it('refuses an id beyond bigint with VALIDATION_ERROR', () => {
    expect(codeOf(raw('2026-11-21T08:00:00.000Z|9223372036854775808'))).toBe('VALIDATION_ERROR');
    expect(codeOf(raw('2026-11-21T08:00:00.000Z|9999999999999999999'))).toBe('VALIDATION_ERROR');
  });

  it('refuses a time in year 0000 with VALIDATION_ERROR', () => {
    expect(codeOf(raw('0000-06-01T00:00:00.000Z|1'))).toBe('VALIDATION_ERROR');
  });

  it('refuses 29 February of a year that is not a leap year, and other days that do not exist', () => {
    for (const at of [
      '2025-02-29T00:00:00.000Z',
      '1900-02-29T00:00:00.000Z',
      '2026-04-31T00:00:00.000Z',
      '2026-13-01T00:00:00.000Z',
      '2026-01-01T24:00:00.000Z',
      '2026-01-01T23:60:00.000Z',
    ]) {
      expect(codeOf(raw(`${at}|1`)), at).toBe('VALIDATION_ERROR');
    }
  });
});
