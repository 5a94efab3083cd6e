import { isValidSscc } from '../contract/scanned-codes.ts';

/** A 4 × 6 inch label at 203 dpi, in dots: what ZPL's ^PW and ^LL say, and the SVG's coordinates. */
export const LABEL_WIDTH_DOTS = 812;
export const LABEL_HEIGHT_DOTS = 1218;

/** A line of a label's text: a caption and its value (`['ORDER', 'SO-24001']`). */
export type LabelLine = readonly [caption: string, value: string];

/** What a label shows, whatever it is printed in: its title, its lines of text and the number as a barcode. */
export interface LabelContent {
  /** `ZONGPAI` or `BOX`. */
  readonly title: string;
  /** The box or zongpai number the barcode holds. */
  readonly number: string;
  readonly lines: readonly LabelLine[];
}

/**
 * How the number is drawn: an SSCC (18 digits, its GS1 check digit right) as GS1-128 with the
 * application identifier (00), anything else as Code 128; `text` is the human-readable line
 * beneath the bars. A decoder reads back `00` + the SSCC, or the number.
 *
 * @example
 * ```ts
 * barcodeOf('012345678901234560'); // { symbology: 'gs1-128', data: '(00)012345678901234560', text: '(00) 012345678901234560' }
 * barcodeOf('BOX-1001'); // { symbology: 'code128', data: 'BOX-1001', text: 'BOX-1001' }
 * ```
 */
export const barcodeOf = (number: string) =>
  isValidSscc(number)
    ? ({ symbology: 'gs1-128', data: `(00)${number}`, text: `(00) ${number}` } as const)
    : ({ symbology: 'code128', data: number, text: number } as const);

/**
 * About how wide `value` is set at `size` (dots): an ideograph (or a full-width form) about one
 * em, any other character about 0.6 em, as the label's sans-serif fonts and a printer's scalable
 * font draw them.
 */
export const textWidthAt = (value: string, size: number): number =>
  [...value].reduce(
    (sum, c) => sum + (/[\u2e80-\ua4cf\uac00-\ud7af\uf900-\ufaff\uff00-\uffef]/u.test(c) ? 1 : 0.6),
    0,
  ) * size;
