import { writeFile } from 'node:fs/promises';
import { loadConfig } from '../config.ts';
import { buildOpenApiDocument } from './document.ts';
import { apiTypes } from './generate.ts';

/**
 * `npm run docs`: writes what is generated from the OpenAPI document of the default
 * configuration: the client types (lib/openapi/api-types.ts). A test fails while they are stale.
 */
const document = buildOpenApiDocument(loadConfig({}));
await writeFile(new URL('./api-types.ts', import.meta.url), await apiTypes(document));
