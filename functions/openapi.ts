import { config } from '../lib/config.ts';
import { route } from '../lib/http/route.ts';
import { buildOpenApiDocument } from '../lib/openapi/document.ts';

const document = buildOpenApiDocument(config);

/** GET /v1/openapi.json: the API description, generated from the handlers' own schemas. */
export const handler = route({
  access: 'public',
  status: 200,
  handle: async () => document,
});
