import createClient from 'openapi-fetch';
import type { paths } from '../../generated/api-types.ts';

/**
 * A client of the service as an app would build one: openapi-fetch over the types that
 * openapi-typescript generated from the OpenAPI document.
 *
 * @example
 * ```ts
 * const client = typedClient(service.stack.url, service.tokens.operator);
 * const { data } = await client.GET('/v1/zongpai/{zongpai_no}', { params: { path: { zongpai_no: 'PLT-0001' } } });
 * ```
 */
export const typedClient = (baseUrl: string, token: string) =>
  createClient<paths>({ baseUrl, headers: { authorization: `Bearer ${token}` } });

export type TypedClient = ReturnType<typeof typedClient>;

/** The codes GET /v1/zongpai/{zongpai_no} can answer with, as the generated types know them. */
type ZongpaiGetErrorCode = NonNullable<Awaited<ReturnType<typeof readZongpai>>['error']>['error_code'];
const readZongpai = (client: TypedClient, zongpaiNo: string) =>
  client.GET('/v1/zongpai/{zongpai_no}', { params: { path: { zongpai_no: zongpaiNo } } });

/** Registers a zongpai under an Idempotency-Key, then reads it back and reads one that does not exist. */
export const registerAndRead = async (client: TypedClient, zongpaiNo: string) => {
  const registered = await client.POST('/v1/zongpai', {
    body: { zongpai_no: zongpaiNo },
    params: { header: { 'Idempotency-Key': `register-${zongpaiNo}` } },
  });
  const read = await readZongpai(client, zongpaiNo);
  const missing = await readZongpai(client, `${zongpaiNo}-X`);
  const status: 'OPEN' | 'CLOSED' | undefined = read.data?.status;
  const code: ZongpaiGetErrorCode | undefined = missing.error?.error_code;
  return { registered, read, status, missing: { status: missing.response.status, code } };
};

/** Never called: the compiler must refuse each call, or the generated types have lost their teeth. */
export const refusedByTheTypes = (client: TypedClient) => {
  // @ts-expect-error: there is no such route
  void client.GET('/v1/zongpais');
  // @ts-expect-error: zongpai_no is a string
  void client.POST('/v1/zongpai', { body: { zongpai_no: 1 } });
  // @ts-expect-error: sscc is a boolean
  void client.POST('/v1/zongpai', { body: { sscc: 'yes' } });
  // @ts-expect-error: limit is an integer
  void client.GET('/v1/cargo/location/{cargo_no}', { params: { path: { cargo_no: 'BOX-1' }, query: { limit: '20' } } });
  // @ts-expect-error: reading a zongpai never answers BOX_NOT_FOUND
  const impossible: ZongpaiGetErrorCode = 'BOX_NOT_FOUND';
  void impossible;
  // @ts-expect-error: the undo of a box is DELETE, not POST
  void client.POST('/v1/box/{box_no}', { params: { path: { box_no: 'BOX-1' } } });
};
