import * as z from 'zod/mini';

/** A time in an answer: an ISO 8601 date and time in UTC (`2026-11-24T08:00:00.000Z`), the one form of every answer. */
export const timestamp = z.iso.datetime();

/** An OpenAPI response with a JSON body of `schema`. */
export const jsonContent = <T>(schema: z.ZodMiniType<T>, description: string) => ({
  description,
  content: { 'application/json': { schema } },
});

export const LocationRecord = z.object({
  id: z.string(),
  cargo_no: z.string(),
  location_code: z.string(),
  off_shelf: z.boolean(),
  scanned_at: z.nullable(timestamp),
  recorded_at: timestamp,
  recorded_by: z.string(),
  device_id: z.nullable(z.string()),
  /** 1 as scanned, 2 once voided: the version a void names (body field or If-Match). */
  version: z.int(),
});
export type LocationRecord = z.infer<typeof LocationRecord>;

export const TrailEntry = z.extend(LocationRecord, { occurred_at: timestamp, via: z.enum(['BOX', 'ZONGPAI']) });
export type TrailEntry = z.infer<typeof TrailEntry>;

/** A history entry: a scan a supervisor voided stays in the history with who voided it and when. */
export const HistoryEntry = z.extend(TrailEntry, {
  voided_at: z.nullable(timestamp),
  voided_by: z.nullable(z.string()),
});
export type HistoryEntry = z.infer<typeof HistoryEntry>;

export const LocationRecordsResponse = z.object({ records: z.array(LocationRecord) });

export const CargoLocationResponse = z.object({
  cargo_no: z.string(),
  /** null once every scan of the cargo (and of its zongpai) was voided. */
  current: z.nullable(TrailEntry),
  history: z.array(HistoryEntry),
  next_cursor: z.nullable(z.string()),
});
export type CargoLocationResponse = z.infer<typeof CargoLocationResponse>;

export const LocationContentResponse = z.object({
  location_code: z.string(),
  cargo: z.array(
    z.object({
      cargo_no: z.string(),
      kind: z.enum(['BOX', 'ZONGPAI', 'CARGO']),
      since: timestamp,
      off_shelf: z.boolean(),
      boxes: z.array(z.string()),
    }),
  ),
  next_cursor: z.nullable(z.string()),
});
export type LocationContentResponse = z.infer<typeof LocationContentResponse>;

export const VoidedRecordResponse = z.object({
  id: z.string(),
  cargo_no: z.string(),
  location_code: z.string(),
  voided_at: timestamp,
  voided_by: z.string(),
  version: z.literal(2),
});
export type VoidedRecordResponse = z.infer<typeof VoidedRecordResponse>;
