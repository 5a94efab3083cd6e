/**
 * `npm run docs`: writes what is generated from the OpenAPI document of the default
 * configuration: the API reference (docs/API.md) and the client types (lib/openapi/api-types.ts);
 * and each compiled write statement of the default configuration, whole (docs/sql/<name>.md).
 * A test fails while any of them is stale.
 */

import { mkdir, writeFile } from 'node:fs/promises';
import { routeTable } from '../../infra/routes.ts';
import { loadConfig } from '../config.ts';
import { writeStatementDocs } from '../write-statements.ts';
import { buildOpenApiDocument } from './document.ts';
import { apiTypes } from './generate.ts';
import { apiReference, type OpenApiDocument } from './reference.ts';

const defaults = loadConfig({});
const document = buildOpenApiDocument(defaults, routeTable(defaults.servicePrefix));
await writeFile(new URL('./api-types.ts', import.meta.url), await apiTypes(document));
await writeFile(new URL('../../docs/API.md', import.meta.url), apiReference(document as unknown as OpenApiDocument));
const sqlDocs = new URL('../../docs/sql/', import.meta.url);
await mkdir(sqlDocs, { recursive: true });
for (const [file, text] of writeStatementDocs(defaults)) await writeFile(new URL(file, sqlDocs), text);
