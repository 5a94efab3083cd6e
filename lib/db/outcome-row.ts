import * as z from 'zod/mini';

/** Each schema of `shape`, NULL allowed. */
type NullableEach<S extends z.core.$ZodShape> = { [K in keyof S]: z.ZodMiniNullable<S[K]> };

const nullableEach = <S extends z.core.$ZodShape>(shape: S): NullableEach<S> =>
  Object.fromEntries(Object.entries(shape).map(([name, schema]) => [name, z.nullable(schema)])) as NullableEach<S>;

/**
 * The schema of a write's outcome row: `error_code`, the catalogue code of the problem the
 * statement found (NULL for none; `statementErrorCode` reads it, and fails the request on a code
 * the catalogue does not know), and `columns`, each of them NULL in a row that does not hold it.
 * A write answers its problem and what it wrote as columns of one row (its answer LEFT JOINs them
 * onto `(SELECT 1)`, or lists a row per problem beside one of what was written), so a row comes
 * back whatever happened and every column but the ones all its rows hold may be NULL;
 * `wroteColumns` says whether the written ones are there. A column every row holds is added with
 * `z.extend`.
 *
 * @example
 * ```ts
 * const VoidRow = outcomeRow({ id: z.string(), voided_at: z.string() });
 * VoidRow.parse({ error_code: 'RECORD_NOT_FOUND', id: null, voided_at: null }); // a problem, nothing written
 * ```
 */
export const outcomeRow = <S extends z.core.$ZodShape>(columns: S) =>
  z.object({ error_code: z.nullable(z.string()), ...nullableEach(columns) });
