import { readFileSync } from 'node:fs';
import { defineRoute, lambdaHandler } from '../lib/http/route.ts';
import { OpenApiDocumentResponse } from '../lib/contract/responses.ts';

/** GET /v1/openapi.json: the API description, generated from the route declarations and their own schemas. */
export const spec = defineRoute({
  id: 'OpenApi',
  method: 'GET',
  path: '/v1/openapi.json',
  access: 'public',
  status: 200,
  // The public API description never touches the database.
  dataApi: [],
  docs: import.meta.withoutDocs
    ? undefined
    : () => ({
        summary: 'This OpenAPI document',
        response: { schema: OpenApiDocumentResponse, description: 'The OpenAPI 3.1 document of the service' },
        errors: [],
      }),
  example: {},
  // Rendered where every route is declared (infra/routes.ts `apiDocument`): the stack writes it
  // beside the bundle as openapi.json, the local runtime hands it over as API_DOCUMENT. The
  // function carries no route's code and no documentation library.
  describesApi: true,
  make: ({ env }): unknown =>
    JSON.parse(env.API_DOCUMENT ?? readFileSync(new URL('./openapi.json', import.meta.url), 'utf8')),
  handle: async (document) => document,
});

export const handler = lambdaHandler(spec, process.env);
