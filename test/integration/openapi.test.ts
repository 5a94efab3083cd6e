import SwaggerParser from '@apidevtools/swagger-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../support/service.ts';

let service: TestService;
beforeAll(async () => {
  service = await startTestService();
});
afterAll(async () => service?.close());

describe('GET /v1/openapi.json', () => {
  it('serves a document that a real OpenAPI validator accepts, without a token', async () => {
    const res = await service.call('GET', '/v1/openapi.json', { token: null });
    expect(res.status).toBe(200);
    await expect(SwaggerParser.validate(structuredClone(res.body))).resolves.toBeDefined();
  });

  it('names the unified error body and the request and response schemas', async () => {
    const { body } = await service.call('GET', '/v1/openapi.json', { token: null });
    expect(Object.keys(body.components.schemas)).toEqual(expect.arrayContaining(['ErrorBody', 'LocationScan', 'LocationBacklog', 'CargoLocationResponse', 'BoxInfoResponse', 'BoxSaveRequest', 'BoxSaveResponse']));
    expect(body.components.schemas.ErrorBody.required).toEqual(expect.arrayContaining(['error_code', 'message', 'domain']));
  });

  it('documents every route of the route table', async () => {
    const { body } = await service.call('GET', '/v1/openapi.json', { token: null });
    const documented = Object.entries(body.paths as Record<string, Record<string, unknown>>).flatMap(([path, ops]) => Object.keys(ops).map((m) => `${m.toUpperCase()} ${path}`));
    const routes = service.stack.routes.filter((r) => r.access !== 'public').map((r) => `${r.method} ${r.path}`);
    expect(documented.sort()).toEqual(routes.sort());
  });
});
