import * as z from 'zod/mini';
import type { Fields } from '../rules/fields.ts';
import { boxPageQuery } from '../rules/query.ts';

/** Request schemas of the order routes: the order, and a page of its boxes. */
export const makeOrderSchemas = (fields: Fields) => ({
  orderPath: z.object({ order_no: fields.orderNo }),
  orderQuery: boxPageQuery(),
});
