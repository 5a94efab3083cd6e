/**
 * Normalisation of what a handheld scanner sends, before any pattern is checked: part of the
 * contract because the handheld app reads a scan exactly as the service does, so that what it
 * tells apart and queues offline is the number the service will read.
 *
 * Keyboard-wedge scanners add whitespace or a trailing CR/LF, may prefix an AIM symbology
 * identifier (`]C1` for GS1-128) and send GS1 application identifiers with or without
 * parentheses. These functions undo exactly that and nothing else: whatever is still
 * outside a pattern afterwards is rejected, never altered.
 */

/** An AIM symbology identifier: `]`, a code letter, a modifier character (ISO/IEC 15424). */
const AIM_PREFIX = /^\][A-Za-z][0-9A-Za-z]/;
/** GS1-128 SSCC: application identifier 00 followed by 18 digits, with or without parentheses. */
const GS1_SSCC = /^(?:\(00\)|00)(\d{18})$/;
const SSCC = /^\d{18}$/;

/** What a scanner puts around a code: spaces, tabs, CR and LF. Other Unicode spaces (U+FEFF, U+00A0...) are not trimmed. */
const SCANNER_PADDING = /^[ \t\r\n]+|[ \t\r\n]+$/g;

/**
 * Removes the spaces, tabs, CR and LF a scanner adds around a value, and nothing else.
 *
 * @example
 * ```ts
 * trimScan('\tSKU-1\r\n'); // 'SKU-1'
 * ```
 */
export const trimScan = (raw: string): string => raw.replace(SCANNER_PADDING, '');

/**
 * Upper-cases ASCII letters only: `toUpperCase()` would turn `ﬁ` into `FI`, `ı` into `I` and
 * `ß` into `SS`, silently making a value the pattern then accepts.
 */
const upperAscii = (value: string): string => value.replace(/[a-z]+/g, (letters) => letters.toUpperCase());

/**
 * Trims scanner padding (spaces, tabs, CR/LF), strips an AIM prefix and upper-cases a-z.
 *
 * @example
 * ```ts
 * normaliseCode(' ]C1box-01\r\n'); // 'BOX-01'
 * normaliseCode('plt-ﬁ01');          // 'PLT-ﬁ01' (refused by the pattern, never 'PLT-FI01')
 * ```
 */
export const normaliseCode = (raw: string): string => upperAscii(trimScan(trimScan(raw).replace(AIM_PREFIX, '')));

/**
 * Computes the GS1 mod-10 check digit of the digits before it.
 *
 * @example
 * ```ts
 * gs1CheckDigit('00012345600012345'); // 2
 * ```
 */
export const gs1CheckDigit = (digits: string): number => {
  let sum = 0;
  for (let i = 0; i < digits.length; i += 1) {
    const fromRight = digits.length - i;
    sum += Number(digits[i]) * (fromRight % 2 === 1 ? 3 : 1);
  }
  return (10 - (sum % 10)) % 10;
};

/**
 * True when an 18-digit SSCC's last digit is its GS1 check digit.
 *
 * @example
 * ```ts
 * isValidSscc('000123456000123452'); // true
 * ```
 */
export const isValidSscc = (sscc: string): boolean =>
  SSCC.test(sscc) && gs1CheckDigit(sscc.slice(0, 17)) === Number(sscc[17]);

export type CargoNoResult = { ok: true; value: string } | { ok: false; value: string; reason?: 'sscc_check_digit' };

/**
 * Normalises a scanned box or zongpai number: GS1-128 `(00)`/`00` + 18 digits becomes the bare
 * SSCC, an 18-digit value must carry a valid check digit, and the result must match `pattern`.
 * Boxes and zongpais (pallets carry SSCC labels too) are read alike, because a location scan's
 * `cargo_no` may be either: one label is one number whichever route reads it.
 *
 * @example
 * ```ts
 * normaliseCargoNo('(00)000123456000123452', /^[A-Z0-9-]{4,32}$/); // { ok: true, value: '000123456000123452' }
 * ```
 */
export const normaliseCargoNo = (raw: string, pattern: RegExp): CargoNoResult => {
  const code = normaliseCode(raw);
  const value = GS1_SSCC.exec(code)?.[1] ?? code;
  if (SSCC.test(value) && !isValidSscc(value)) return { ok: false, value, reason: 'sscc_check_digit' };
  return pattern.test(value) ? { ok: true, value } : { ok: false, value };
};

/** Printable: no control, format, surrogate or unassigned code points. */
const PRINTABLE = /^[^\p{C}]+$/u;

/**
 * Trims scanner padding from an item code and checks it is 1..maxLength printable characters.
 *
 * @example
 * ```ts
 * normaliseItemCode(' SKU-1\r\n', 64); // { ok: true, value: 'SKU-1' }
 * ```
 */
export const normaliseItemCode = (raw: string, maxLength: number): { ok: boolean; value: string } => {
  const value = trimScan(raw);
  return { ok: PRINTABLE.test(value) && [...value].length <= maxLength, value };
};
