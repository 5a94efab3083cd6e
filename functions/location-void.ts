import { defineRoute, lambdaHandler } from '../lib/http/route.ts';
import { makeScanVoidSchemas, makeScanVoider, recordVersion } from '../lib/location/index.ts';
import { VoidedRecordResponse } from '../lib/contract/common.ts';
import { DATABASE } from '../lib/openapi/route-docs.ts';

/** DELETE /v1/{service_prefix}/location/{cargo_no}/records/{id}: void a wrong scan (supervisors); it stays in the history, marked. */
export const spec = defineRoute({
  id: 'LocationVoid',
  method: 'DELETE',
  path: '/v1/{service_prefix}/location/{cargo_no}/records/{id}',
  access: 'supervisor',
  status: 200,
  docs: import.meta.withoutDocs
    ? undefined
    : () => ({
        summary: 'Void a wrong scan (supervisors)',
        description:
          'The record stays in the history marked voided and no longer counts for the current location. Needs the record version (body field or If-Match): 1 until voided, 2 after (naming 2 of a voided record answers it unchanged).',
        response: { schema: VoidedRecordResponse, description: 'The voided record' },
        errors: ['INVALID_BOX_NO', 'VALIDATION_ERROR', 'RECORD_NOT_FOUND', 'VERSION_CONFLICT', ...DATABASE],
      }),
  versioned: true,
  example: { path: { cargo_no: 'BOX-1001', id: '1' }, body: { version: 1 } },
  schemas: ({ fields }) => makeScanVoidSchemas(fields),
  make: makeScanVoider,
  handle: (voidScan, { path, body, headers, caller, idempotency }) =>
    voidScan(
      { cargo_no: path.cargo_no, id: path.id, version: recordVersion(body?.version, headers['if-match']) },
      caller.username,
      idempotency,
    ),
});

export const handler = lambdaHandler(spec, process.env);
