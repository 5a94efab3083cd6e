import { AppError } from '../errors/app-error.ts';

/** A history position: the last entry's time and id. Opaque to clients. */
export interface Cursor {
  readonly at: string;
  readonly id: string;
}

/** @example encodeCursor({ at: '2026-11-21T08:00:00.000Z', id: '42' }) // 'MjAyNi0xMS0yMVQwODowMDowMC4wMDBafDQy' */
export const encodeCursor = (cursor: Cursor): string => Buffer.from(`${cursor.at}|${cursor.id}`, 'utf8').toString('base64url');

const CURSOR = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z)\|(\d{1,19})$/;

/** Reads a cursor back; anything that did not come from {@link encodeCursor} is a 400. */
export const decodeCursor = (text: string): Cursor => {
  const match = CURSOR.exec(Buffer.from(text, 'base64url').toString('utf8'));
  if (match === null || Number.isNaN(Date.parse(match[1] ?? ''))) throw new AppError('VALIDATION_ERROR', { field: 'cursor', reason: 'is not a cursor this service issued' });
  return { at: match[1] as string, id: match[2] as string };
};
