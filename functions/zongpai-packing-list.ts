import { defineRoute, lambdaHandler, STATEMENT } from '../lib/http/route.ts';
import { makePackingList } from '../lib/zongpai/packing-list.ts';
import { oneZongpai } from '../lib/zongpai/schemas.ts';
import { PackingListResponse } from '../lib/openapi/responses.ts';
import { DATABASE, ERP_VIEW } from '../lib/openapi/route-docs.ts';

/** GET /v1/zongpai/{zongpai_no}/packing-list: every box on the zongpai with its order, customer and items; totals per item. */
export const spec = defineRoute({
  id: 'ZongpaiPackingList',
  method: 'GET',
  path: '/v1/zongpai/{zongpai_no}/packing-list',
  access: 'reader',
  status: 200,
  dataApi: STATEMENT,
  ...oneZongpai,
  docs: import.meta.withoutDocs
    ? undefined
    : () => ({
        summary: 'The packing list of a zongpai: every box with its order, customer and items; totals per item',
        response: { schema: PackingListResponse, description: 'The packing list' },
        errors: ['INVALID_ZONGPAI', 'VALIDATION_ERROR', 'ZONGPAI_NOT_FOUND', ...DATABASE, ...ERP_VIEW],
      }),
  make: makePackingList,
  handle: (packingList, { path }) => packingList(path.zongpai_no),
});

export const handler = lambdaHandler(spec, process.env);
