import { defineRoute, lambdaHandler } from '../lib/http/route.ts';
import { makePackingList } from '../lib/zongpai/packing-list.ts';
import { makeZongpaiSchemas, oneZongpai } from '../lib/zongpai/schemas.ts';
import { BOX_PAGE_LIMIT_DOC } from '../lib/openapi/fields.ts';
import { PackingListResponse } from '../lib/contract/responses.ts';
import { BOX_PAGES, DATABASE, ERP_VIEW } from '../lib/openapi/route-docs.ts';
import { boxPageQuery } from '../lib/rules/query.ts';

/** GET /v1/zongpai/{zongpai_no}/packing-list?limit=&cursor=: every box on the zongpai with its order, customer and items; totals per item. */
export const spec = defineRoute({
  id: 'ZongpaiPackingList',
  method: 'GET',
  path: '/v1/zongpai/{zongpai_no}/packing-list',
  access: 'reader',
  status: 200,
  docs: import.meta.withoutDocs
    ? undefined
    : () => ({
        summary: 'The packing list of a zongpai: every box with its order, customer and items; totals per item',
        description: `${BOX_PAGES} The box count and total quantity are over the whole zongpai on every page.`,
        query: { limit: BOX_PAGE_LIMIT_DOC },
        response: { schema: PackingListResponse, description: 'The packing list' },
        errors: ['INVALID_ZONGPAI', 'VALIDATION_ERROR', 'ZONGPAI_NOT_FOUND', ...DATABASE, ...ERP_VIEW],
      }),
  example: oneZongpai.example,
  schemas: ({ fields }) => ({ path: makeZongpaiSchemas(fields).zongpaiPath, query: boxPageQuery() }),
  make: makePackingList,
  handle: (packingList, { path, query }) => packingList(path.zongpai_no, query),
});

export const handler = lambdaHandler(spec, process.env);
