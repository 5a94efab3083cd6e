import * as z from 'zod/mini';

/**
 * Validates with one of two schemas, chosen by looking at the input, so that errors speak of
 * the shape the client meant (a plain union would report both shapes' errors at once).
 *
 * @example
 * ```ts
 * const body = either((v) => isObject(v) && 'records' in v, Backlog, SingleScan);
 * ```
 */
export const either = <A, B>(isFirst: (input: unknown) => boolean, first: z.ZodMiniType<A>, second: z.ZodMiniType<B>) =>
  z.pipe(
    z.unknown(),
    z.transform((input: unknown, ctx): A | B => {
      const result = (isFirst(input) ? first : second).safeParse(input);
      if (result.success) return result.data;
      for (const issue of result.error.issues) ctx.issues.push({ ...issue, input: undefined } as never);
      return z.NEVER;
    }),
  );

export const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
