import { documentRoute } from '../../lib/openapi/route-docs.ts';
import { OpenApiDocumentResponse } from '../../lib/contract/responses.ts';

/** What the API reference says of GET /v1/openapi.json (functions/openapi.ts). */
export const documentation = documentRoute('OpenApi', () => ({
  summary: 'This OpenAPI document',
  response: { schema: OpenApiDocumentResponse, description: 'The OpenAPI 3.1 document of the service' },
  errors: [],
}));
