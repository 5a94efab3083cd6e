import * as z from 'zod/mini';
import type { Fields } from '../rules/fields.ts';
import { cursorQuery, wholeNumberQuery } from '../rules/query.ts';

/** Request schemas of the zongpai routes. */
export const makeZongpaiSchemas = (fields: Fields) => ({
  registerBody: z.strictObject({ zongpai_no: fields.zongpaiNo }),
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
