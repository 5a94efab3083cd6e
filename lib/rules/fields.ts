import * as z from 'zod/mini';
import type { Config } from '../config.ts';
import type { FieldCodes } from '../http/validate.ts';
import {
  describePattern,
  normaliseCargoNo,
  normaliseCode,
  normaliseItemCode,
  SSCC_CHECK_DIGIT_WRONG,
  trimScan,
} from './identifiers.ts';

/** The longest `device_id` a scan may name, in UTF-16 code units. */
export const DEVICE_ID_MAX_LENGTH = 64;

/** The longest description of a registered location (SPEC: at most 200 printable characters). */
export const LOCATION_DESCRIPTION_MAX_LENGTH = 200;

/** Why a field's value is refused: the issue's message and its parameters. */
interface Refusal {
  readonly message: string;
  readonly params: Record<string, unknown>;
}

/** A string field: what `normalise` makes of the raw value, or an issue on the field saying why it is refused. */
const normalised = (normalise: (raw: string) => string | Refusal) =>
  z.pipe(
    z.string(),
    z.transform((raw: string, ctx) => {
      const result = normalise(raw);
      if (typeof result === 'string') return result;
      ctx.issues.push({ code: 'custom', input: raw, ...result });
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
      return { message: `must be ${describePattern(pattern)}`, params: { rule: describePattern(pattern) } };
    });

  /** Why a label number is refused: its SSCC check digit, or else `pattern`. */
  const labelRefusal = (pattern: RegExp, result: { reason?: 'sscc_check_digit' }, otherwise: string): Refusal => {
    const reason = result.reason === 'sscc_check_digit' ? SSCC_CHECK_DIGIT_WRONG : undefined;
    return { message: reason ?? otherwise, params: { rule: describePattern(pattern), reason } };
  };

  /** A box or a zongpai number: SSCC forms read as the SSCC, then `pattern`. */
  const labelNo = (pattern: RegExp) =>
    normalised((raw) => {
      const result = normaliseCargoNo(raw, pattern);
      return result.ok ? result.value : labelRefusal(pattern, result, 'does not match');
    });

  /** A box or a zongpai, read as both are (SSCC included, its check digit named when wrong), then either pattern. */
  const cargoNo = normalised((raw) => {
    const asBox = normaliseCargoNo(raw, config.boxNoPattern);
    if (asBox.ok) return asBox.value;
    if (asBox.reason === undefined && normaliseCargoNo(raw, config.zongpaiNoPattern).ok) return asBox.value;
    return labelRefusal(config.boxNoPattern, asBox, 'is not a box or zongpai number');
  });

  /** Trimmed of scanner padding, 1 to `maxLength` printable characters, otherwise kept as sent: matched exactly as the ERP holds it (no upper-casing). */
  const printable = (maxLength: number) =>
    normalised((raw) => {
      const result = normaliseItemCode(raw, maxLength);
      if (result.ok) return result.value;
      return { message: 'is not printable', params: { limit: maxLength } };
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
        z.regex(/^[^\p{C}]+$/u, 'must be printable characters'),
      ),
    /** What a registered location is, in words (optional): trimmed, 1-200 printable characters, otherwise kept as sent. */
    locationDescription: z
      .string()
      .check(
        z.overwrite(trimScan),
        z.minLength(1),
        z.maxLength(LOCATION_DESCRIPTION_MAX_LENGTH),
        z.regex(/^[^\p{C}]+$/u, 'must be printable characters'),
      ),
  };
};

export type Fields = ReturnType<typeof makeFields>;

/** The SPEC's error code for a bad value of each field name, wherever the field appears. */
export const makeFieldCodes = (config: Config): FieldCodes => {
  const boxRule = { rule: describePattern(config.boxNoPattern) };
  return {
    box_no: { code: 'INVALID_BOX_NO', params: boxRule },
    cargo_no: { code: 'INVALID_BOX_NO', params: boxRule },
    zongpai_no: { code: 'INVALID_ZONGPAI', params: { rule: describePattern(config.zongpaiNoPattern) } },
    location_code: { code: 'INVALID_LOCATION_CODE', params: { rule: describePattern(config.locationCodePattern) } },
    to_location_code: { code: 'INVALID_LOCATION_CODE', params: { rule: describePattern(config.locationCodePattern) } },
    item_code: { code: 'INVALID_ITEM_CODE', params: { limit: config.itemCodeMaxLength } },
    order_no: { code: 'INVALID_ORDER_NO', params: { limit: config.orderNoMaxLength } },
    quantity: { code: 'INVALID_QUANTITY', params: { limit: config.quantityMax } },
  };
};
