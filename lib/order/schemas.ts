import * as z from 'zod/mini';
import type { Fields } from '../rules/fields.ts';
import { cursorQuery, wholeNumberQuery } from '../rules/query.ts';

/** Request schemas of the order routes: the order, and a page of its boxes (1-500, default 500). */
export const makeOrderSchemas = (fields: Fields) => ({
  orderPath: z.object({ order_no: fields.orderNo }),
  orderQuery: z.object({
    limit: wholeNumberQuery({ min: 1, max: 500, fallback: 500 }),
    cursor: cursorQuery(/^[A-Za-z0-9_-]{1,4096}$/),
  }),
});
