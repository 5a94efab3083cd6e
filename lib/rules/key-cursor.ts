import { AppError } from '../errors/app-error.ts';

/**
 * The opaque cursor of a list read in key order: the last key a page showed, behind the list's
 * own tag, so that one list's cursor is refused by another. `key` is what a key may be (a source
 * for RegExp, Unicode mode); anything else, or a cursor this service did not issue, is a 400.
 *
 * @example
 * ```ts
 * const cursor = keyCursor('o', '.+');
 * cursor.decode(cursor.encode('BOX-1001')); // 'BOX-1001'
 * ```
 */
export const keyCursor = (tag: string, key: string) => {
  const pattern = new RegExp(`^${tag}\\|(${key})$`, 'su');
  return {
    encode: (last: string): string => Buffer.from(`${tag}|${last}`, 'utf8').toString('base64url'),
    decode: (cursor: string): string => {
      const match = pattern.exec(Buffer.from(cursor, 'base64url').toString('utf8'));
      if (match === null) throw new AppError('VALIDATION_ERROR', { field: 'cursor', reason: 'not_a_cursor' });
      return match[1] as string;
    },
  };
};
