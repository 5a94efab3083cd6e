/**
 * Response schemas of the location register's routes: the OpenAPI document reads them, and the
 * register takes its response types from them (`import type`, so handlers never load them).
 */

import * as z from 'zod/mini';
import { timestamp } from './common.ts';

/** A registered location. */
export const RegisteredLocation = z.object({
  location_code: z.string(),
  kind: z.enum(['SHELF', 'STAGING', 'DOCK', 'FLOOR', 'QUARANTINE']),
  /** false for a SHELF, true for every other kind. */
  off_shelf: z.boolean(),
  zone: z.nullable(z.string()),
  description: z.nullable(z.string()),
  blocked: z.boolean(),
  /** 1 when registered, one more with each change. */
  version: z.int(),
  registered_at: timestamp,
  changed_at: timestamp,
});
export type RegisteredLocation = z.infer<typeof RegisteredLocation>;

/** POST locations: how many of the import's locations were new, changed, or already as imported. */
export const LocationImportResponse = z.object({ created: z.int(), changed: z.int(), unchanged: z.int() });
export type LocationImportResponse = z.infer<typeof LocationImportResponse>;

/** GET locations: one page of the register, by code. */
export const LocationListResponse = z.object({
  locations: z.array(RegisteredLocation),
  next_cursor: z.nullable(z.string()),
});
export type LocationListResponse = z.infer<typeof LocationListResponse>;
