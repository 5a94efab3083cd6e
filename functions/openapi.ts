import { defineRoute, lambdaHandler } from '../lib/http/route.ts';
import { buildOpenApiDocument, parseApiRoutes } from '../lib/openapi/document.ts';

/** GET /v1/openapi.json: the API description, generated from the handlers' own schemas. */
export const spec = defineRoute({
  id: 'OpenApi',
  method: 'GET',
  path: '/v1/openapi.json',
  access: 'public',
  status: 200,
  // The public API description never touches the database.
  dataApi: [],
  example: {},
  // The stack and the local runtime tell it the declared routes: it does not carry their code.
  describesApi: true,
  handle: ({ config, env }) => {
    const document = buildOpenApiDocument(config, parseApiRoutes(env.API_ROUTES));
    return async () => document;
  },
});

export const handler = lambdaHandler(spec, process.env);
