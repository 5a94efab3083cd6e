import { writeFile } from 'node:fs/promises';
import { loadConfig } from '../config.ts';
import { buildOpenApiDocument } from './document.ts';
import { apiTypes } from './generate.ts';
import { apiReference, type OpenApiDocument } from './reference.ts';

/**
 * `npm run docs`: writes what is generated from the OpenAPI document of the default
 * configuration: the API reference (docs/API.md) and the client types (lib/openapi/api-types.ts).
 * A test fails while either is stale.
 */
const document = buildOpenApiDocument(loadConfig({}));
await writeFile(new URL('./api-types.ts', import.meta.url), await apiTypes(document));
await writeFile(new URL('../../docs/API.md', import.meta.url), apiReference(document as unknown as OpenApiDocument));
