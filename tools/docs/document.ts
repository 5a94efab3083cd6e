import { mkdir, writeFile } from 'node:fs/promises';
import { loadRoutes } from '../../infra/routes.ts';
import { loadConfig } from '../../lib/config.ts';
import { buildOpenApiDocument } from '../../lib/openapi/document.ts';
import { apiTypes } from './api-types.ts';

/**
 * The OpenAPI document of the default configuration, what `npm run docs` and `npm run types`
 * generate from, with the configuration.
 *
 * @example
 * ```ts
 * const { document, defaults } = await defaultDocument();
 * ```
 */
export const defaultDocument = async () => {
  const { routeTable } = await loadRoutes();
  const defaults = loadConfig({});
  return { defaults, document: buildOpenApiDocument(defaults, routeTable(defaults.servicePrefix)) };
};

/**
 * Writes generated/api-types.ts: the client types openapi-typescript generates from `document`.
 *
 * @example
 * ```ts
 * await writeApiTypes((await defaultDocument()).document);
 * ```
 */
export const writeApiTypes = async (document: object): Promise<void> => {
  const folder = new URL('../../generated/', import.meta.url);
  await mkdir(folder, { recursive: true });
  await writeFile(new URL('api-types.ts', folder), await apiTypes(document));
};
