import type { BoxInfo } from '../src/api-types.ts';

/**
 * A box as GET /v1/box/info answers it before anything of it is boxed: NOT_BOXED, on no zongpai,
 * version 0, not complete, never saved; its plan as given.
 */
export const unboxedInfo = (box: Pick<BoxInfo, 'box_no' | 'order_no' | 'customer_name' | 'items'>): BoxInfo => ({
  ...box,
  status: 'NOT_BOXED',
  zongpai_no: null,
  version: 0,
  complete: false,
  saved_at: null,
  saved_by: null,
});
