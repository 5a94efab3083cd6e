import { makeBoxInfo } from '../lib/box/index.ts';
import { makeBoxSchemas } from '../lib/box/schemas.ts';
import { defineRoute, lambdaHandler, STATEMENT } from '../lib/http/route.ts';
import { BoxInfoResponse } from '../lib/openapi/responses.ts';
import { DATABASE, ERP_VIEW } from '../lib/openapi/route-docs.ts';

/** GET /v1/box/info?box_no=: the ERP plan of the box and what is boxed so far (`BoxInfoResponse`). */
export const spec = defineRoute({
  id: 'BoxInfo',
  method: 'GET',
  path: '/v1/box/info',
  access: 'reader',
  status: 200,
  dataApi: STATEMENT,
  example: { query: { box_no: 'BOX-1001' } },
  schemas: ({ config, fields }) => ({ query: makeBoxSchemas(config, fields).infoQuery }),
  docs: import.meta.withoutDocs
    ? undefined
    : ({ config, fields }) => {
        const box = makeBoxSchemas(config, fields);
        return {
          summary: 'The ERP plan of a box and what is boxed so far',
          request: { query: box.infoQuery },
          response: { schema: BoxInfoResponse, description: 'The box' },
          errors: ['INVALID_BOX_NO', 'BOX_NOT_FOUND', ...DATABASE, ...ERP_VIEW],
        };
      },
  handle: (runtime) => {
    const info = makeBoxInfo({ db: runtime.db(), config: runtime.config, logger: runtime.logger });
    return ({ query }) => info(query.box_no);
  },
});

export const handler = lambdaHandler(spec, process.env);
