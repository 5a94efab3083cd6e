/**
 * The API's shapes as the app uses them, all derived from the types openapi-typescript
 * generated from the service's OpenAPI document (generated/api-types.ts, `npm run docs`).
 */
import type { components, paths } from '../../generated/api-types.ts';

export type { paths };
type Schemas = components['schemas'];
export type ErrorBody = Schemas['ErrorBody'];
export type ErrorCode = ErrorBody['error_code'];
export type BoxInfo = Schemas['BoxInfoResponse'];
export type BoxSaved = Schemas['BoxSaveResponse'];
export type BoxHistory = Schemas['BoxHistoryResponse'];
export type BoxItem = Schemas['BoxSaveRequest']['items'][number];
export type Zongpai = Schemas['ZongpaiResponse'];
export type LocationScan = Schemas['LocationScan'];
export type CargoLocation = Schemas['CargoLocationResponse'];
export type RegisteredLocation = Schemas['RegisteredLocation'];
type Ok<P extends keyof paths, M extends 'get' | 'post' | 'delete'> = paths[P][M] extends { responses: { 200: { content: { 'application/json': infer T } } } } ? T : never;
export type OrderProgress = Ok<'/v1/orders/{order_no}', 'get'>;
export type PackingList = Ok<'/v1/zongpai/{zongpai_no}/packing-list', 'get'>;
export type ZongpaiPage = Ok<'/v1/zongpai', 'get'>;
export type LocationContent = Ok<'/v1/cargo/locations/{location_code}/cargo', 'get'>;
export type VoidedScan = Ok<'/v1/cargo/location/{cargo_no}/records/{id}', 'delete'>;
