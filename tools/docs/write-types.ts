/**
 * `npm run types` (and `npm install`, as `prepare`): writes generated/api-types.ts, the client types
 * openapi-typescript generates from the OpenAPI document of the default configuration. The file is
 * built, not kept in git; the handheld app and the typed test client import it, and an ERP
 * integrator may take it as it is.
 */

import { defaultDocument, writeApiTypes } from './document.ts';

await writeApiTypes((await defaultDocument()).document);
