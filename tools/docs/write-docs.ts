/**
 * `npm run docs`: writes what is generated from the OpenAPI document of the default
 * configuration: the API reference (docs/API.md) and the client types (generated/api-types.ts);
 * and each compiled write statement of the default configuration, whole (docs/sql/<name>.md).
 * A test fails while any of them is stale.
 */

import { mkdir, writeFile } from 'node:fs/promises';
import { writeStatementDocs } from '../../lib/write-statements.ts';
import { apiReference, type OpenApiDocument } from '../../lib/openapi/reference.ts';
import { defaultDocument, writeApiTypes } from './document.ts';

const { defaults, document } = await defaultDocument();
await writeApiTypes(document);
await writeFile(new URL('../../docs/API.md', import.meta.url), apiReference(document as unknown as OpenApiDocument));
const sqlDocs = new URL('../../docs/sql/', import.meta.url);
await mkdir(sqlDocs, { recursive: true });
for (const [file, text] of writeStatementDocs(defaults)) await writeFile(new URL(file, sqlDocs), text);
