import * as z from 'zod/mini';
import { errorCatalogue, type ErrorCode } from '../errors/catalogue.ts';

/** The unified error body, as a named schema every error response refers to. */
export const ErrorBody = z.object({
  error_code: z.enum(Object.keys(errorCatalogue) as [ErrorCode, ...ErrorCode[]]),
  message: z.string(),
  domain: z.enum(['box', 'zongpai', 'location', 'request', 'auth', 'system']),
  request_id: z.optional(z.string()),
  details: z.optional(z.array(z.object({ field: z.string(), error_code: z.string(), message: z.string() }))),
});

const timestamp = z.iso.datetime();

/** Documentation helpers: the error responses a route can give, by status. */
export const errorResponses = (...statuses: number[]) =>
  Object.fromEntries(
    statuses.map((status) => [
      String(status),
      {
        description: Object.entries(errorCatalogue)
          .filter(([, e]) => e.status === status)
          .map(([code]) => code)
          .join(', '),
        content: { 'application/json': { schema: ErrorBody } },
      },
    ]),
  );

export const json = <T>(schema: z.ZodMiniType<T>, description: string) => ({ description, content: { 'application/json': { schema } } });

export const LocationRecord = z.object({
  id: z.string(),
  cargo_no: z.string(),
  location_code: z.string(),
  off_shelf: z.boolean(),
  scanned_at: z.nullable(timestamp),
  recorded_at: timestamp,
  recorded_by: z.string(),
  device_id: z.nullable(z.string()),
});

export const TrailEntry = z.extend(LocationRecord, { occurred_at: timestamp, via: z.enum(['BOX', 'ZONGPAI']) });

export const LocationRecordsResponse = z.object({ records: z.array(LocationRecord) });

export const CargoLocationResponse = z.object({
  cargo_no: z.string(),
  current: TrailEntry,
  history: z.array(TrailEntry),
  next_cursor: z.nullable(z.string()),
});

export const idempotencyHeader = z.object({ 'idempotency-key': z.optional(z.string().check(z.minLength(1), z.maxLength(255))) });
