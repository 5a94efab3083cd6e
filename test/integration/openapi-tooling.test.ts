import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiTypes } from '../../tools/docs/api-types.ts';
import { apiReference, type OpenApiDocument } from '../../lib/openapi/reference.ts';
import { startTestService, type TestService } from '../support/service.ts';
import { registerAndRead, typedClient } from '../support/typed-client.ts';

const root = new URL('../../', import.meta.url);
let service: TestService;
let document: object;
let scratch: string;
beforeAll(async () => {
  service = await startTestService();
  document = (await service.call('GET', '/v1/openapi.json', { token: null })).body;
  scratch = await mkdtemp(join(tmpdir(), 'openapi-'));
});
afterAll(async () => {
  await service?.close();
  if (scratch !== undefined) await rm(scratch, { recursive: true, force: true });
});

describe('the OpenAPI document with the tools clients use', () => {
  it('passes redocly lint with the recommended rules, without a warning', async () => {
    const file = join(scratch, 'openapi.json');
    await writeFile(file, JSON.stringify(document));
    const cli = new URL('node_modules/@redocly/cli/bin/cli.js', root).pathname;
    const run = promisify(execFile)(process.execPath, [cli, 'lint', file, '--extends=recommended', '--format=json'], {
      env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', NO_COLOR: '1' },
      cwd: scratch,
    });
    const { stdout } = await run;
    const report = JSON.parse(stdout) as {
      totals: { errors: number; warnings: number };
      problems: { ruleId: string; message: string }[];
    };
    expect(report.problems.map((p) => `${p.ruleId}: ${p.message}`)).toEqual([]);
    expect(report.totals).toEqual(expect.objectContaining({ errors: 0, warnings: 0 }));
  });

  it('keeps generated/api-types.ts what openapi-typescript generates from the document (npm run docs)', async () => {
    const committed = await readFile(new URL('generated/api-types.ts', root), 'utf8');
    expect(committed).toBe(await apiTypes(document));
  });

  it('keeps docs/API.md the reference the served document renders (npm run docs)', async () => {
    const committed = await readFile(new URL('docs/API.md', root), 'utf8');
    expect(committed).toBe(apiReference(document as OpenApiDocument));
    expect(committed).toContain('| POST | `/v1/zongpai` | operator, supervisor | 201 |');
    expect(committed).toContain('| GET | `/v1/events` | supervisor, integration | 200 |');
    expect(committed).not.toMatch(/Access: undefined|\| undefined \|/);
  });

  it('registers a zongpai and reads it back through the typed client against the local service', async () => {
    const client = typedClient(service.stack.url, service.tokens.operator);
    const { registered, read, status, missing } = await registerAndRead(client, 'PLT-TYPED-1');
    expect(registered.response.status).toBe(201);
    expect(read.data).toEqual(
      expect.objectContaining({
        zongpai_no: 'PLT-TYPED-1',
        status: 'OPEN',
        box_count: 0,
        total_quantity: 0,
        boxes: [],
      }),
    );
    expect(status).toBe('OPEN');
    expect(missing).toEqual({ status: 404, code: 'ZONGPAI_NOT_FOUND' });
  });

  // Last: the compiler holds the event loop, which would let the service's idle connections lapse under a running call.
  it('type-checks an openapi-fetch client over the generated types, and refuses wrong calls', () => {
    const config = ts.getParsedCommandLineOfConfigFile(
      new URL('tsconfig.json', root).pathname,
      {},
      { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => undefined },
    );
    const program = ts.createProgram([new URL('test/support/typed-client.ts', root).pathname], {
      ...config?.options,
      noEmit: true,
    });
    const diagnostics = ts
      .getPreEmitDiagnostics(program)
      .map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
    expect(diagnostics).toEqual([]);
  });
});
