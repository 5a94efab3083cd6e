import * as z from 'zod/mini';
import type { Fields } from '../rules/fields.ts';
import type { LabelFormat } from './label.ts';

/** `format`: `zpl` (the default) or `svg`; anything else is VALIDATION_ERROR. */
const formatQuery = z.object({
  format: z._default(z.enum(['zpl', 'svg'] satisfies LabelFormat[]), 'zpl'),
});

/** Request schemas of the label routes: the number in the path, the format in the query. */
export const labelSchemas = {
  zongpai: ({ fields }: { fields: Fields }) => ({
    path: z.object({ zongpai_no: fields.zongpaiNo }),
    query: formatQuery,
  }),
  box: ({ fields }: { fields: Fields }) => ({ path: z.object({ box_no: fields.boxNo }), query: formatQuery }),
};
