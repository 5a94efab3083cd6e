import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { dataApiGrants, databaseUser, functionIds } from '../../infra/grants.ts';
import { loadRoutes } from '../../infra/routes.ts';
import { loadConfig } from '../../lib/config.ts';
import { buildOpenApiDocument } from '../../lib/openapi/document.ts';
import { makeFields } from '../../lib/rules/fields.ts';

const { routeSpecs, routeTable, tasks } = await loadRoutes();

const config = loadConfig({});
const runtime = { config, fields: makeFields(config) };

describe('the route declarations (functions/*.ts)', () => {
  it('declare each route once: one id, one method and path', () => {
    const ids = routeSpecs.map((s) => s.id);
    expect(new Set(ids).size).toBe(ids.length);
    const endpoints = routeTable('cargo').map((r) => `${r.method} ${r.path}`);
    expect(new Set(endpoints).size).toBe(endpoints.length);
  });

  it('give every route an example request that its own schemas accept, with a value for each path parameter', () => {
    for (const spec of routeSpecs) {
      const schemas = spec.schemas?.(runtime) ?? {};
      const parameters = [...spec.path.matchAll(/\{(\w+)\}/g)]
        .map((m) => m[1])
        .filter((name) => name !== 'service_prefix');
      expect(Object.keys(spec.example.path ?? {}).sort(), spec.id).toEqual(parameters.sort());
      for (const part of ['path', 'query', 'body'] as const) {
        const schema = schemas[part];
        if (schema === undefined) {
          expect(spec.example[part], `${spec.id} has a ${part} example but no ${part} schema`).toBeUndefined();
          continue;
        }
        const result = schema.safeParse(spec.example[part] ?? (part === 'body' ? undefined : {}));
        expect(result.success, `${spec.id}: its ${part} example is refused by its schema`).toBe(true);
      }
    }
  });

  it('give every function a Data API grant of its own, and the OpenAPI document none', () => {
    expect([...functionIds()].sort()).toEqual([...routeSpecs.map((s) => s.id), ...tasks.map((t) => t.id)].sort());
    expect(dataApiGrants('OpenApi')).toEqual([]);
    expect(dataApiGrants('Migrate')).toContain('BeginTransaction');
  });

  it('sign every GET route in as the reader, every other route as the service user, the scheduled tasks as the maintenance user, the migrator as the owner', () => {
    for (const spec of routeSpecs.filter((s) => s.id !== 'OpenApi'))
      expect(databaseUser(spec.id), spec.id).toBe(spec.method === 'GET' ? 'reader' : 'service');
    expect(databaseUser('OpenApi')).toBeUndefined();
    expect(Object.fromEntries(tasks.map((t) => [t.id, databaseUser(t.id)]))).toEqual({
      EventRelay: 'maintenance',
      IdempotencySweep: 'maintenance',
      Migrate: 'owner',
    });
    expect(() => databaseUser('NoSuchFunction')).toThrow(/no function declares this id/);
  });

  it('are each documented in the OpenAPI document, and it documents nothing else', () => {
    const document = buildOpenApiDocument(config, routeTable(config.servicePrefix));
    const documented = Object.entries(document.paths ?? {}).flatMap(([path, item]) =>
      Object.keys(item as object)
        .filter((m) => ['get', 'post', 'put', 'patch', 'delete'].includes(m))
        .map((m) => `${m.toUpperCase()} ${path}`),
    );
    expect(documented.sort()).toEqual(
      routeTable(config.servicePrefix)
        .map((r) => `${r.method} ${r.path}`)
        .sort(),
    );
  });

  it('refuses to render a route whose declaration carries no docs, naming the route', () => {
    const routes = routeTable(config.servicePrefix);
    const archive = {
      id: 'ZongpaiArchive',
      method: 'POST',
      path: '/v1/zongpai/{zongpai_no}/archive',
      access: 'supervisor',
      spec: { status: 200, docs: undefined },
    } as const;
    expect(() => buildOpenApiDocument(config, [...routes, archive])).toThrow('route ZongpaiArchive declares no docs');
  });

  it('give every route its documentation in its own declaration, which the document shows', () => {
    const document = buildOpenApiDocument(config, routeTable(config.servicePrefix)) as unknown as {
      paths: Record<string, Record<string, { summary: string }>>;
    };
    for (const route of routeTable(config.servicePrefix)) {
      expect(route.spec?.docs, `${route.id} has no docs`).toBeTypeOf('function');
      expect(document.paths[route.path]?.[route.method.toLowerCase()]?.summary).toBe(
        route.spec?.docs?.(runtime).summary,
      );
    }
  });

  it('keep the documentation of each route beside it in functions/api-docs/ under the name of its file, and out of every route file', () => {
    for (const spec of routeSpecs) {
      const docsFile = spec.entry.replace('functions/', 'functions/api-docs/');
      expect(existsSync(new URL(`../../${docsFile}`, import.meta.url)), `${spec.id}: ${docsFile}`).toBe(true);
      expect(spec.docs, `${spec.id} has no documentation`).toBeTypeOf('function');
      const source = readFileSync(new URL(`../../${spec.entry}`, import.meta.url), 'utf8');
      expect(source, spec.entry).not.toMatch(/api-docs|openapi\/|withoutDocs/);
    }
  });
});
