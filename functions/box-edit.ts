import { expectedVersion, makeBoxEdit } from '../lib/box/index.ts';
import { makeBoxSchemas } from '../lib/box/schemas.ts';
import { defineRoute, lambdaHandler, STATEMENT } from '../lib/http/route.ts';

/** PATCH /v1/box/{box_no}: move a saved box to another zongpai and/or replace its items (supervisors). */
export const spec = defineRoute({
  id: 'BoxEdit',
  method: 'PATCH',
  path: '/v1/box/{box_no}',
  access: 'supervisor',
  status: 200,
  dataApi: STATEMENT,
  example: { path: { box_no: 'BOX-1001' }, body: { version: 1, zongpai_no: 'PLT-0002' } },
  schemas: ({ config, fields }) => {
    const box = makeBoxSchemas(config, fields);
    return { path: box.boxPath, body: box.editBody };
  },
  handle: (runtime) => {
    const edit = makeBoxEdit({ db: runtime.db(), config: runtime.config });
    return ({ path, body, headers, caller, idempotency }) =>
      edit(
        { box_no: path.box_no, version: expectedVersion(body.version, headers['if-match']), zongpai_no: body.zongpai_no, items: body.items },
        caller.username,
        idempotency,
      );
  },
});

export const handler = lambdaHandler(spec, process.env);
