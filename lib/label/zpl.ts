import { barcodeOf, LABEL_HEIGHT_DOTS, LABEL_WIDTH_DOTS, textWidthAt, type LabelContent } from './content.ts';

/** The media type of a ZPL label. */
export const ZPL_MEDIA_TYPE = 'text/plain; charset=utf-8';

const MARGIN = 40;
const TEXT_WIDTH = LABEL_WIDTH_DOTS - 2 * MARGIN;

/**
 * A field's data for ^FH (hexadecimal escapes, `_` the indicator): every character that would
 * end or change the field (`^`, `~`), the indicator itself, and the control characters are
 * written as the hexadecimal of their UTF-8 bytes, so that no value from the ERP can command the
 * printer; with ^CI28 the printer reads the bytes as UTF-8.
 */
export const zplFieldData = (value: string): string =>
  value.replace(/[\^~_\\\p{Cc}]/gu, (c) =>
    [...new TextEncoder().encode(c)].map((b) => `_${b.toString(16).toUpperCase().padStart(2, '0')}`).join(''),
  );

/** The narrowest the characters of a line are set (dots), however long the line. */
const MIN_CHARACTER_WIDTH = 10;

/**
 * A line of text at `y`: font 0 (the scalable font) `size` dots high, on one line the width of
 * the label. A line too wide at that size (an ERP customer name can be longer than 4 inches) is
 * set in narrower characters, as high, so that it fits: a printer overprints the end of a one-line
 * field block on itself rather than cutting it.
 */
const textField = (y: number, size: number, text: string) => {
  const width = Math.max(
    MIN_CHARACTER_WIDTH,
    Math.min(size, Math.floor((size * TEXT_WIDTH) / textWidthAt(text, size))),
  );
  return `^FO${MARGIN},${y}^A0N,${size},${width}^FB${TEXT_WIDTH},1,0,L^FH^FD${zplFieldData(text)}^FS`;
};

/**
 * The number as ZPL's own Code 128 (^BC), with the printer's interpretation line beneath it. An
 * SSCC uses the UCC/EAN mode (`D`): the printer starts the symbol with FNC1, encodes `00` and the
 * 18 digits in subset C and prints the parentheses of `(00)` only in the text. Any other number
 * uses the automatic mode (`A`), which picks the subsets itself.
 */
const barcodeField = (number: string, y: number) => {
  const barcode = barcodeOf(number);
  const mode = barcode.symbology === 'gs1-128' ? 'D' : 'A';
  return `^FO${MARGIN},${y}^BY${moduleWidth(barcode.data)},3,240^BCN,240,Y,N,N,${mode}^FH^FD${zplFieldData(barcode.data)}^FS`;
};

/**
 * The widest bar module (1-3 dots) at which the symbol fits the label's width: 11 modules a
 * symbol, a run of 4 or more digits two digits a symbol in subset C (and a switch into it and out),
 * plus start, check character and stop; the parentheses of `(00)` are not encoded.
 */
const moduleWidth = (data: string) => {
  const runs = data.replaceAll(/[()]/g, '').match(/\d{4,}|\D+|\d+/g) ?? [];
  const symbols = runs.reduce((n, run) => n + (/^\d{4,}$/.test(run) ? Math.ceil(run.length / 2) + 2 : run.length), 0);
  return Math.max(1, Math.min(3, Math.floor(TEXT_WIDTH / (11 * (symbols + 3) + 2))));
};

/**
 * The label in ZPL II for a 4 × 6 inch label on a 203 dpi printer (812 × 1218 dots). Text is in
 * UTF-8 (^CI28) with the printer's scalable font 0 (^A0); Chinese text (a customer's name) prints
 * only where a font that draws CJK is loaded on the printer and chosen for ^A0 (e.g. with ^CW),
 * which is the printer's setup, not the label's.
 *
 * @example
 * ```ts
 * zplLabel({ title: 'BOX', number: 'BOX-1001', lines: [['ORDER', 'SO-24001']] }).startsWith('^XA'); // true
 * ```
 */
export const zplLabel = (label: LabelContent): string =>
  [
    '^XA',
    '^CI28',
    `^PW${LABEL_WIDTH_DOTS}`,
    `^LL${LABEL_HEIGHT_DOTS}`,
    '^LH0,0',
    textField(MARGIN, 70, label.title),
    ...label.lines.map(([caption, value], i) => textField(150 + i * 80, 50, `${caption}: ${value}`)),
    barcodeField(label.number, LABEL_HEIGHT_DOTS - MARGIN - 320),
    '^XZ',
    '',
  ].join('\n');
