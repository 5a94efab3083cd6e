import * as z from 'zod/mini';
import { refusedBecause } from '../rules/refusal.ts';
import type { Fields } from '../rules/fields.ts';
import { cursorQuery, wholeNumberQuery } from '../rules/query.ts';

/**
 * Request schemas of the zongpai routes. A registration names its zongpai (`zongpai_no`) or asks
 * for the next SSCC (`sscc: true`), never both; without either, `zongpai_no` is required.
 */
export const makeZongpaiSchemas = (fields: Fields) => ({
  registerBody: z.strictObject({ zongpai_no: z.optional(fields.zongpaiNo), sscc: z.optional(z.boolean()) }).check(
    z.refine(
      (body) => !(body.sscc === true && body.zongpai_no !== undefined),
      refusedBecause({ reason: 'number_or_sscc' }, 'VALIDATION_ERROR'),
    ),
    z.superRefine((body, ctx) => {
      if (body.sscc !== true && body.zongpai_no === undefined)
        ctx.addIssue({ code: 'invalid_type', expected: 'string', path: ['zongpai_no'], input: undefined });
    }),
  ),
  zongpaiPath: z.object({ zongpai_no: fields.zongpaiNo }),
  listQuery: z.object({
    status: z.optional(z.enum(['OPEN', 'CLOSED'])),
    limit: wholeNumberQuery({ min: 1, max: 100, fallback: 20 }),
    cursor: cursorQuery(/^[A-Za-z0-9_-]{1,200}$/),
  }),
});

/**
 * What every route on one zongpai (`/v1/zongpai/{zongpai_no}…`) declares of its request: the
 * validated path and its example. Spread into the declaration.
 *
 * @example
 * ```ts
 * export const spec = defineRoute({ id: 'ZongpaiGet', method: 'GET', path: '/v1/zongpai/{zongpai_no}', ...oneZongpai, ... });
 * ```
 */
export const oneZongpai = {
  example: { path: { zongpai_no: 'PLT-0001' } },
  schemas: ({ fields }: { fields: Fields }) => ({ path: makeZongpaiSchemas(fields).zongpaiPath }),
};

/**
 * What closing and reopening a zongpai declare of their request: the zongpai in the path and no
 * body, or an empty object (a client that sends fields, or names another zongpai in them, is told
 * so rather than ignored).
 */
export const zongpaiStateChange = {
  example: oneZongpai.example,
  schemas: ({ fields }: { fields: Fields }) => ({
    path: makeZongpaiSchemas(fields).zongpaiPath,
    body: z.optional(z.strictObject({})),
  }),
};
