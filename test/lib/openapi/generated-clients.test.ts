import { mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createClient } from '@hey-api/openapi-ts';
import { generate } from 'orval';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadRoutes } from '../../../infra/routes.ts';
import { loadConfig } from '../../../lib/config.ts';
import type { RouteExample } from '../../../lib/http/route.ts';

const { apiDocument, routeSpecs } = await loadRoutes();

/**
 * Clients generated from the document by orval (its zod schemas) and @hey-api/openapi-ts (its
 * TypeScript SDK and zod schemas), beside the openapi-typescript types the project ships: each
 * must accept every request the service accepts, with the values a scanner really sends.
 */
const root = new URL('../../../', import.meta.url);
const document = JSON.parse(apiDocument(loadConfig({}))) as {
  paths: Record<string, Record<string, { operationId: string; parameters?: Parameter[] }>>;
};
interface Parameter {
  readonly name: string;
  readonly in: string;
  readonly schema?: { readonly type?: string };
}

/** A route's request as a typed client passes it: a query's integers as numbers, not text. */
interface Request {
  readonly operationId: string;
  readonly name: string;
  readonly path?: Readonly<Record<string, string>>;
  readonly query?: Readonly<Record<string, string | number>>;
  readonly body?: unknown;
}

const operationOf = (id: string) => {
  const operationId = `${id.charAt(0).toLowerCase()}${id.slice(1)}`;
  for (const methods of Object.values(document.paths))
    for (const operation of Object.values(methods)) if (operation.operationId === operationId) return operation;
  throw new Error(`no operation ${operationId} in the document`);
};

const typed = (id: string, name: string, example: RouteExample): Request => {
  const operation = operationOf(id);
  const integer = (key: string) =>
    operation.parameters?.some((p) => p.in === 'query' && p.name === key && p.schema?.type === 'integer');
  const query =
    example.query === undefined
      ? undefined
      : Object.fromEntries(Object.entries(example.query).map(([k, v]) => [k, integer(k) ? Number(v) : v]));
  return { operationId: operation.operationId, name, ...example, query };
};

/** Printable text a client must let through: the characters `\p{C}` without Unicode mode refuses, Chinese text, emoji. */
const PRINTABLE = ['PDA-{p}C', 'p', 'C', '{', '}', '扫描枪-1', '📦-7'];

const REQUESTS: readonly Request[] = [
  ...routeSpecs.map((spec) => typed(spec.id, `${spec.id}: its declared example`, spec.example)),
  ...PRINTABLE.flatMap((text) => [
    typed('LocationRecord', `LocationRecord: device_id ${text}`, {
      body: { cargo_no: 'BOX-1001', location_code: 'A-01', device_id: text },
    }),
    typed('BoxEdit', `BoxEdit: item_code ${text}`, {
      path: { box_no: 'BOX-1001' },
      body: { version: 1, items: [{ item_code: text, quantity: 1 }] },
    }),
    typed('OrderGet', `OrderGet: order_no ${text}`, { path: { order_no: text } }),
  ]),
];

const capital = (id: string) => `${id.charAt(0).toUpperCase()}${id.slice(1)}`;
type Schemas = Record<string, { safeParse: (value: unknown) => { success: boolean; error?: unknown } } | undefined>;

let scratch: string;
let orval: Schemas;
let heyApi: Schemas;
beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'openapi-clients-'));
  // The generated modules import zod and the client runtime as a project would.
  await symlink(new URL('node_modules', root).pathname, join(scratch, 'node_modules'), 'dir');
  const input = join(scratch, 'openapi.json');
  await writeFile(input, JSON.stringify(document));
  await Promise.all([
    generate({ input: { target: input }, output: { target: join(scratch, 'orval/api.ts'), client: 'zod' } }),
    createClient({
      input,
      output: join(scratch, 'hey-api'),
      plugins: ['@hey-api/client-fetch', '@hey-api/typescript', '@hey-api/sdk', 'zod'],
      logs: { level: 'silent' },
    }),
  ]);
  orval = (await import(pathToFileURL(join(scratch, 'orval/api.ts')).href)) as Schemas;
  heyApi = (await import(pathToFileURL(join(scratch, 'hey-api/zod.gen.ts')).href)) as Schemas;
}, 60_000);
afterAll(async () => {
  if (scratch !== undefined) await rm(scratch, { recursive: true, force: true });
});

describe('clients generated from the OpenAPI document', () => {
  it('has a request for every route and for each printable field', () => {
    expect(REQUESTS.length).toBe(routeSpecs.length + 3 * PRINTABLE.length);
  });

  it.each(REQUESTS)("orval's zod schemas accept $name", (request) => {
    const name = capital(request.operationId);
    const parts = { path: `${name}Params`, query: `${name}QueryParams`, body: `${name}Body` } as const;
    const refused = (['path', 'query', 'body'] as const).flatMap((part) => {
      if (request[part] === undefined) return [];
      const schema = orval[parts[part]];
      if (schema === undefined) return [`${parts[part]}: not generated`];
      const result = schema.safeParse(request[part]);
      return result.success ? [] : [`${parts[part]}: ${String(result.error)}`];
    });
    expect(refused).toEqual([]);
  });

  it.each(REQUESTS)("@hey-api/openapi-ts's zod schemas accept $name", (request) => {
    const name = capital(request.operationId);
    const parts = { path: `z${name}Path`, query: `z${name}Query`, body: `z${name}Body` } as const;
    const refused = (['path', 'query', 'body'] as const).flatMap((part) => {
      if (request[part] === undefined) return [];
      const schema = heyApi[parts[part]];
      if (schema === undefined) return [`${parts[part]}: not generated`];
      const result = schema.safeParse(request[part]);
      return result.success ? [] : [`${parts[part]}: ${String(result.error)}`];
    });
    expect(refused).toEqual([]);
  });

  // Last: the compiler holds the event loop for a few seconds.
  it("type-checks a call of @hey-api/openapi-ts's SDK for every request, and refuses a wrong one", async () => {
    const calls = REQUESTS.map(({ operationId, path, query, body }) => {
      const options = JSON.stringify({ path, query, body });
      return `  ${operationId}(${options === '{}' ? '' : options}),`;
    });
    const used = [...new Set(REQUESTS.map((r) => r.operationId))].sort();
    const right = join(scratch, 'calls.ts');
    const wrong = join(scratch, 'wrong.ts');
    await writeFile(
      right,
      `import { ${used.join(', ')} } from './hey-api/sdk.gen.js';\n\nexport const calls = [\n${calls.join('\n')}\n];\n`,
    );
    await writeFile(
      wrong,
      `import { locationRecord } from './hey-api/sdk.gen.js';\n\nexport const call = locationRecord({ body: { cargo_no: 'BOX-1001', location_code: 'A-01', device_id: 7 } });\n`,
    );
    const program = ts.createProgram([right, wrong], {
      target: ts.ScriptTarget.ES2023,
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      lib: ['lib.es2023.d.ts', 'lib.dom.d.ts', 'lib.dom.iterable.d.ts'],
      strict: true,
      skipLibCheck: true,
      noEmit: true,
      types: [],
    });
    const diagnostics = ts
      .getPreEmitDiagnostics(program)
      .map((d) => `${d.file?.fileName ?? ''}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`);
    expect(diagnostics.filter((d) => !d.startsWith(wrong))).toEqual([]);
    expect(diagnostics.filter((d) => d.startsWith(wrong)).join('\n')).toMatch(
      /wrong.ts: Type 'number' is not assignable to type 'string'/,
    );
  });
});
