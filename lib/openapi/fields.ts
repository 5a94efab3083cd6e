import * as z from 'zod/mini';
import type { Config } from '../config.ts';
import { DEVICE_ID_MAX_LENGTH, LOCATION_DESCRIPTION_MAX_LENGTH, type Fields } from '../rules/fields.ts';

type JsonSchema = Record<string, unknown>;

/** `^[A-Z0-9-]{4,32}$` → `{ minLength: 4, maxLength: 32 }`; a pattern of another shape gives no bounds. */
const lengthsOf = (pattern: RegExp): JsonSchema => {
  const match = /\{(\d+),(\d+)\}\$$/.exec(pattern.source);
  return match ? { minLength: Number(match[1]), maxLength: Number(match[2]) } : {};
};

export const NORMALISED =
  'Scanners may send surrounding whitespace, a trailing CR/LF, an AIM symbology prefix and lower-case letters: the service trims and upper-cases before checking; anything else outside the pattern is refused.';

/**
 * The code points the document's printable pattern refuses, each a \u escape: the controls (Cc),
 * the format characters (Cf) and the private-use area (Co) of the Basic Multilingual Plane. The
 * service refuses all of Unicode's category C (`\p{C}`), but a pattern naming a property means
 * something else to an engine without Unicode mode (`\p` is a `p` there), so the document lists
 * what it can state alike in every engine.
 */
const NOT_PRINTABLE = String.raw`\u0000-\u001F\u007F-\u009F\u00AD\u0600-\u0605\u061C\u06DD\u070F\u0890\u0891\u08E2\u180E\u200B-\u200F\u202A-\u202E\u2060-\u2064\u2066-\u206F\uE000-\uF8FF\uFEFF\uFFF9-\uFFFB`;

/**
 * "Printable" as the document states it, meaning the same with and without Unicode mode (and to
 * Python's and Java's engines). It names no surrogate: an engine without Unicode mode reads a
 * character beyond the Basic Multilingual Plane as two surrogate code units, which the class then
 * accepts as it accepts the character in Unicode mode (and a generator that writes the pattern's
 * escapes out as characters cannot write a lone surrogate). Every value the service accepts
 * matches it; the service also refuses lone surrogates, unassigned code points, and the format
 * and private-use characters beyond that plane.
 */
export const PRINTABLE_PATTERN = `^[^${NOT_PRINTABLE}]+$`;

const PRINTABLE_RULE =
  'printable characters (no control, format or private-use character: the pattern lists those of the Basic Multilingual Plane; the service also refuses those beyond it, unassigned code points and lone surrogates)';

/** A trimmed text field of printable characters: `what` it is, and `then` how the service matches it. */
const printable = (maxLength: number, what: string, then = ''): JsonSchema => ({
  type: 'string',
  pattern: PRINTABLE_PATTERN,
  minLength: 1,
  maxLength,
  description: `${what}: ${PRINTABLE_RULE}, trimmed${then}.`,
});

/**
 * Registers what the document shows for a schema in place of what zod-openapi derives from it
 * (the input side of a transform is a bare string). Only for the documentation's own schema
 * instances: handlers build theirs separately.
 */
export const documented = <S extends z.core.$ZodType>(schema: S, shown: Readonly<JsonSchema>): S => {
  z.globalRegistry.add(schema, {
    override: ({ jsonSchema }: { jsonSchema: JsonSchema }) => {
      for (const key of Object.keys(jsonSchema)) delete jsonSchema[key];
      Object.assign(jsonSchema, shown);
    },
  });
  return schema;
};

/**
 * What the OpenAPI document says about each identifier field: the configured pattern and
 * length of the value the service stores. The handlers' schemas normalise scanner input with a
 * transform, which JSON Schema cannot express, so the rule is stated here, keyed by the very
 * schema objects the handlers validate with.
 *
 * @example
 * ```ts
 * documentIdentifiers(config, fields); // fields.boxNo now shows { pattern: '^[A-Z0-9-]{4,32}$', minLength: 4, maxLength: 32, … }
 * ```
 */
export const documentIdentifiers = (config: Config, fields: Fields): void => {
  const code = (pattern: RegExp, what: string): JsonSchema => ({
    type: 'string',
    pattern: pattern.source,
    ...lengthsOf(pattern),
    description: `${what}. ${NORMALISED}`,
  });
  const box = config.boxNoPattern;
  const zongpai = config.zongpaiNoPattern;
  const cargoPattern = box.source === zongpai.source ? box.source : `(?:${box.source})|(?:${zongpai.source})`;
  documented(
    fields.boxNo,
    code(
      box,
      "Box number; an 18-digit value is an SSCC whose GS1 check digit must hold, and a GS1-128 scan '(00)' or '00' + 18 digits is accepted as that SSCC",
    ),
  );
  documented(fields.cargoNo, {
    ...code(box, 'A box number (SSCC and GS1-128 forms as for box_no) or a zongpai number'),
    pattern: cargoPattern,
  });
  documented(
    fields.zongpaiNo,
    code(
      zongpai,
      'Zongpai number; an SSCC pallet label is read as a box label is (its check digit, its GS1-128 forms)',
    ),
  );
  documented(fields.locationCode, code(config.locationCodePattern, 'Location code'));
  documented(fields.itemCode, printable(config.itemCodeMaxLength, 'Item code'));
  documented(
    fields.orderNo,
    printable(config.orderNoMaxLength, 'ERP order number', ', otherwise matched exactly as the ERP view holds it'),
  );
  documented(fields.deviceId, printable(DEVICE_ID_MAX_LENGTH, 'The scanning device'));
  documented(fields.locationDescription, printable(LOCATION_DESCRIPTION_MAX_LENGTH, 'What the location is, in words'));
};

/** A list's page size (history, zongpais, what is at a location): sent as a query string, read as an integer 1-100, default 20. */
export const LIMIT_DOC: JsonSchema = {
  type: 'integer',
  minimum: 1,
  maximum: 100,
  default: 20,
  description: 'Entries per page.',
};

/** A listing's page of boxes (an order's, a packing list's): sent as a query string, read as an integer 1-500, default 500. */
export const BOX_PAGE_LIMIT_DOC: JsonSchema = {
  type: 'integer',
  minimum: 1,
  maximum: 500,
  default: 500,
  description: 'Boxes per page at most (a page of boxes with many items holds fewer).',
};
