import { makeBoxInfo } from '../lib/box/index.ts';
import { makeBoxSchemas } from '../lib/box/schemas.ts';
import { defineRoute, lambdaHandler } from '../lib/http/route.ts';
import { BoxInfoResponse } from '../lib/contract/responses.ts';
import { DATABASE, ERP_VIEW } from '../lib/openapi/route-docs.ts';

/** GET /v1/box/info?box_no=: the ERP plan of the box and what is boxed so far (`BoxInfoResponse`). */
export const spec = defineRoute({
  id: 'BoxInfo',
  method: 'GET',
  path: '/v1/box/info',
  access: 'reader',
  status: 200,
  docs: import.meta.withoutDocs
    ? undefined
    : () => ({
        summary: 'The ERP plan of a box and what is boxed so far',
        description:
          "Every item of the box's plan, whole: a plan whose items come to more than one Data API answer carries (896 KB: about 2 500 items with names of 60 letters, 500 with names of 500 Chinese characters, 270 with names of 1 000) is 422 ERP_PLAN_INVALID naming its size, never a part of it.",
        response: { schema: BoxInfoResponse, description: 'The box' },
        errors: ['INVALID_BOX_NO', 'BOX_NOT_FOUND', 'ERP_PLAN_INVALID', ...DATABASE, ...ERP_VIEW],
      }),
  example: { query: { box_no: 'BOX-1001' } },
  schemas: ({ config, fields }) => makeBoxSchemas(config, fields).info,
  make: makeBoxInfo,
  handle: (info, { query }) => info(query.box_no),
});

export const handler = lambdaHandler(spec, process.env);
