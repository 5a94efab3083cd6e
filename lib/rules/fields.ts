import * as z from 'zod/mini';
import type { Config } from '../config.ts';
import { normaliseCargoNo, normaliseCode, normaliseItemCode, trimScan } from '../contract/scanned-codes.ts';
import type { ErrorCode, MessageParams } from '../errors/catalogue.ts';
import type { Reason } from '../errors/reasons.ts';
import { reasonMessage } from './refusal.ts';

/** Which SPEC error code a bad value of a field answers with, and what its message may quote (read by lib/http/validate.ts). */
export type FieldCodes = Readonly<Record<string, { code: ErrorCode; params?: MessageParams }>>;

/** The longest `device_id` a scan may name, in UTF-16 code units. */
export const DEVICE_ID_MAX_LENGTH = 64;

/** The longest description of a registered location (SPEC: at most 200 printable characters). */
export const LOCATION_DESCRIPTION_MAX_LENGTH = 200;

/**
 * Why a field's value is refused: what its own error code's message is rendered with, and the
 * reason a VALIDATION_ERROR names where the field has no code of its own.
 */
interface Refusal {
  readonly params: MessageParams;
  readonly otherwise: Reason;
}

/** Printable: no control, format, surrogate or unassigned code points. */
const PRINTABLE = /^[^\p{C}]+$/u;

/** A string field: what `normalise` makes of the raw value, or an issue on the field saying why it is refused. */
const normalised = (normalise: (raw: string) => string | Refusal) =>
  z.pipe(
    z.string(),
    z.transform((raw: string, ctx) => {
      const result = normalise(raw);
      if (typeof result === 'string') return result;
      ctx.issues.push({ code: 'custom', input: raw, params: { ...result.params, otherwise: result.otherwise } });
      return z.NEVER;
    }),
  );

/**
 * Zod schemas for the SPEC's identifiers, built once from configuration.
 *
 * Each schema normalises what scanners send and reports a failure as an issue on its own
 * field; the validation middleware turns the field name into the SPEC's error code
 * (`box_no` → INVALID_BOX_NO, ...), so schemas stay plain and the mapping lives in one place.
 *
 * @example
 * ```ts
 * const f = makeFields(config);
 * f.boxNo.parse(' (00)000123456000123452\r\n'); // '000123456000123452'
 * ```
 */
export const makeFields = (config: Config) => {
  const code = (pattern: RegExp) =>
    normalised((raw) => {
      const value = normaliseCode(raw);
      if (pattern.test(value)) return value;
      return { params: { pattern: pattern.source }, otherwise: { reason: 'pattern', pattern: pattern.source } };
    });

  /** Why a label number is refused: its SSCC check digit, or else `pattern`. */
  const labelRefusal = (pattern: RegExp, result: { reason?: 'sscc_check_digit' }, otherwise: Reason): Refusal => ({
    params: { pattern: pattern.source, ...(result.reason === undefined ? {} : { reason: result.reason }) },
    otherwise,
  });

  /** A box or a zongpai number: SSCC forms read as the SSCC, then `pattern`. */
  const labelNo = (pattern: RegExp) =>
    normalised((raw) => {
      const result = normaliseCargoNo(raw, pattern);
      return result.ok ? result.value : labelRefusal(pattern, result, { reason: 'no_match' });
    });

  /** A box or a zongpai, read as both are (SSCC included, its check digit named when wrong), then either pattern. */
  const cargoNo = normalised((raw) => {
    const asBox = normaliseCargoNo(raw, config.boxNoPattern);
    if (asBox.ok) return asBox.value;
    if (asBox.reason === undefined && normaliseCargoNo(raw, config.zongpaiNoPattern).ok) return asBox.value;
    return labelRefusal(config.boxNoPattern, asBox, { reason: 'not_cargo' });
  });

  /** Trimmed of scanner padding, 1 to `maxLength` printable characters, otherwise kept as sent: matched exactly as the ERP holds it (no upper-casing). */
  const printable = (maxLength: number) =>
    normalised((raw) => {
      const result = normaliseItemCode(raw, maxLength);
      if (result.ok) return result.value;
      return { params: { limit: maxLength }, otherwise: { reason: 'not_printable' } };
    });

  return {
    boxNo: labelNo(config.boxNoPattern),
    cargoNo,
    /** An ERP order number (SPEC: 1-64 printable characters; `ORDER_NO_MAX_LENGTH`). */
    orderNo: printable(config.orderNoMaxLength),
    zongpaiNo: labelNo(config.zongpaiNoPattern),
    locationCode: code(config.locationCodePattern),
    itemCode: printable(config.itemCodeMaxLength),
    quantity: z.int().check(z.minimum(1), z.maximum(config.quantityMax)),
    /** The scanning device a scan names (optional in a scan): trimmed, 1-64 printable characters. */
    deviceId: z
      .string()
      .check(
        z.overwrite(trimScan),
        z.minLength(1),
        z.maxLength(DEVICE_ID_MAX_LENGTH),
        z.regex(PRINTABLE, reasonMessage({ reason: 'printable' })),
      ),
    /** What a registered location is, in words (optional): trimmed, 1-200 printable characters, otherwise kept as sent. */
    locationDescription: z
      .string()
      .check(
        z.overwrite(trimScan),
        z.minLength(1),
        z.maxLength(LOCATION_DESCRIPTION_MAX_LENGTH),
        z.regex(PRINTABLE, reasonMessage({ reason: 'printable' })),
      ),
  };
};

export type Fields = ReturnType<typeof makeFields>;

/** The SPEC's error code for a bad value of each field name, wherever the field appears. */
export const makeFieldCodes = (config: Config): FieldCodes => {
  const boxRule = { pattern: config.boxNoPattern.source };
  return {
    box_no: { code: 'INVALID_BOX_NO', params: boxRule },
    cargo_no: { code: 'INVALID_BOX_NO', params: boxRule },
    zongpai_no: { code: 'INVALID_ZONGPAI', params: { pattern: config.zongpaiNoPattern.source } },
    location_code: { code: 'INVALID_LOCATION_CODE', params: { pattern: config.locationCodePattern.source } },
    to_location_code: { code: 'INVALID_LOCATION_CODE', params: { pattern: config.locationCodePattern.source } },
    item_code: { code: 'INVALID_ITEM_CODE', params: { limit: config.itemCodeMaxLength } },
    order_no: { code: 'INVALID_ORDER_NO', params: { limit: config.orderNoMaxLength } },
    quantity: { code: 'INVALID_QUANTITY', params: { limit: config.quantityMax } },
  };
};
