import { AppError } from '../errors/app-error.ts';
import { parsePostgresInstant, toPostgresInstant } from '../rules/timestamps.ts';

/** A history position: the last entry's time and id. Opaque to clients. */
export interface Cursor {
  readonly at: string;
  readonly id: string;
}

/**
 * The cursor after an entry, from its time as the answer shows it: a time before 1 AD (a scan
 * stored before scan times were bounded) is kept with its era, as PostgreSQL reads it.
 *
 * @example encodeCursor({ at: '2026-11-21T08:00:00.000Z', id: '42' }) // 'MjAyNi0xMS0yMVQwODowMDowMC4wMDBafDQy'
 */
export const encodeCursor = (cursor: Cursor): string =>
  Buffer.from(`${toPostgresInstant(cursor.at)}|${cursor.id}`, 'utf8').toString('base64url');

const CURSOR = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z(?: BC)?)\|(\d{1,19})$/;

/** The largest record id: PostgreSQL's bigint. */
const MAX_ID = 9_223_372_036_854_775_807n;

/**
 * Reads a cursor back; anything that did not come from {@link encodeCursor} is a 400. The time
 * must be a real instant PostgreSQL stores (not 29 February of a common year, not year 0000)
 * and the id a bigint, so that nothing a client forges reaches the database as an error. The
 * time is answered as PostgreSQL reads it (with its era before 1 AD).
 */
export const decodeCursor = (text: string): Cursor => {
  const match = CURSOR.exec(Buffer.from(text, 'base64url').toString('utf8'));
  const [, at = '', id = ''] = match ?? [];
  if (match === null || parsePostgresInstant(at) === undefined || BigInt(id) > MAX_ID) {
    throw new AppError('VALIDATION_ERROR', { field: 'cursor', reason: 'not_a_cursor' });
  }
  return { at, id };
};
