import * as z from 'zod/mini';
import type { Config } from '../config.ts';
import type { FieldCodes } from '../http/validate.ts';
import { describePattern, normaliseBoxNo, normaliseCode, normaliseItemCode } from './identifiers.ts';

/** The longest order number the service accepts (SPEC: 1-64 printable characters). */
export const ORDER_NO_MAX_LENGTH = 64;

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
    z.pipe(
      z.string(),
      z.transform((raw: string, ctx) => {
        const value = normaliseCode(raw);
        if (!pattern.test(value)) {
          ctx.issues.push({
            code: 'custom',
            input: raw,
            message: `must be ${describePattern(pattern)}`,
            params: { rule: describePattern(pattern) },
          });
          return z.NEVER;
        }
        return value;
      }),
    );

  const boxNo = z.pipe(
    z.string(),
    z.transform((raw: string, ctx) => {
      const result = normaliseBoxNo(raw, config.boxNoPattern);
      if (result.ok) return result.value;
      const reason = result.reason === 'sscc_check_digit' ? 'is an SSCC whose GS1 check digit is wrong' : undefined;
      ctx.issues.push({
        code: 'custom',
        input: raw,
        message: reason ?? 'does not match',
        params: { rule: describePattern(config.boxNoPattern), reason },
      });
      return z.NEVER;
    }),
  );

  /** A box or a zongpai: box normalisation (SSCC included), then either pattern. */
  const cargoNo = z.pipe(
    z.string(),
    z.transform((raw: string, ctx) => {
      const asBox = normaliseBoxNo(raw, config.boxNoPattern);
      if (asBox.ok) return asBox.value;
      const asCode = normaliseCode(raw);
      if (asBox.reason === undefined && config.zongpaiNoPattern.test(asCode)) return asCode;
      ctx.issues.push({
        code: 'custom',
        input: raw,
        message: 'is not a box or zongpai number',
        params: { rule: describePattern(config.boxNoPattern) },
      });
      return z.NEVER;
    }),
  );

  const itemCode = z.pipe(
    z.string(),
    z.transform((raw: string, ctx) => {
      const result = normaliseItemCode(raw, config.itemCodeMaxLength);
      if (result.ok) return result.value;
      ctx.issues.push({
        code: 'custom',
        input: raw,
        message: 'is not printable',
        params: { limit: config.itemCodeMaxLength },
      });
      return z.NEVER;
    }),
  );

  /** An ERP order number: trimmed, 1-64 printable characters, otherwise matched exactly as the ERP holds it (no upper-casing). */
  const orderNo = z.pipe(
    z.string(),
    z.transform((raw: string, ctx) => {
      const result = normaliseItemCode(raw, ORDER_NO_MAX_LENGTH);
      if (result.ok) return result.value;
      ctx.issues.push({
        code: 'custom',
        input: raw,
        message: 'is not printable',
        params: { limit: ORDER_NO_MAX_LENGTH },
      });
      return z.NEVER;
    }),
  );

  return {
    boxNo,
    cargoNo,
    orderNo,
    zongpaiNo: code(config.zongpaiNoPattern),
    locationCode: code(config.locationCodePattern),
    itemCode,
    quantity: z.int().check(z.minimum(1), z.maximum(config.quantityMax)),
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
    item_code: { code: 'INVALID_ITEM_CODE', params: { limit: config.itemCodeMaxLength } },
    order_no: { code: 'INVALID_ORDER_NO', params: { limit: ORDER_NO_MAX_LENGTH } },
    quantity: { code: 'INVALID_QUANTITY', params: { limit: config.quantityMax } },
  };
};
