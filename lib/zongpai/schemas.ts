import * as z from 'zod/mini';
import type { Fields } from '../rules/fields.ts';

/** Request schemas of the zongpai routes. */
export const makeZongpaiSchemas = (fields: Fields) => ({
  registerBody: z.object({ zongpai_no: fields.zongpaiNo }),
  zongpaiPath: z.object({ zongpai_no: fields.zongpaiNo }),
});
