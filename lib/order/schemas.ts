import * as z from 'zod/mini';
import type { Fields } from '../rules/fields.ts';

/** Request schemas of the order routes. */
export const makeOrderSchemas = (fields: Fields) => ({
  orderPath: z.object({ order_no: fields.orderNo }),
});
