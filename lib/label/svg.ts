import { code128, drawingSVG, gs1_128 } from 'bwip-js/generic';
import {
  barcodeOf,
  LABEL_HEIGHT_DOTS,
  LABEL_WIDTH_DOTS,
  textWidthAt as widthAt,
  type LabelContent,
} from './content.ts';

/** The media type of an SVG label. */
export const SVG_MEDIA_TYPE = 'image/svg+xml';

const MARGIN = 40;
const BARCODE_HEIGHT = 240;
/** Sans-serif fonts that draw Latin and Chinese, as handhelds and desktops have them. */
const FONTS = "'Noto Sans CJK SC', 'Noto Sans SC', 'Source Han Sans SC', 'PingFang SC', 'Microsoft YaHei', sans-serif";

/** Characters XML 1.0 does not allow in a document (control characters, unpaired surrogates, U+FFFE/FFFF). */
const NOT_XML =
  /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/**
 * Text as XML character data or an attribute's value: markup characters escaped, and a character
 * XML cannot hold shown as U+FFFD (an ERP name may hold one; the label must still be a document).
 */
export const xmlText = (value: string): string =>
  value
    .replace(NOT_XML, '\ufffd')
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&apos;');

/** The smallest size a line of text is set in before it is held to the label's width instead. */
const MIN_TEXT_SIZE = 28;
const TEXT_WIDTH = LABEL_WIDTH_DOTS - 2 * MARGIN;

/**
 * A line of text that stays on the label: an ERP customer name can be longer than 4 inches, so a
 * line too wide at `size` is set smaller, down to {@link MIN_TEXT_SIZE}, and one still too wide
 * is held to the label's width (`textLength`), never cut at its edge.
 */
const text = (y: number, size: number, value: string, anchor: 'start' | 'middle' = 'start') => {
  const wide = widthAt(value, size) > TEXT_WIDTH;
  const fitted = wide ? Math.max(MIN_TEXT_SIZE, Math.floor((size * TEXT_WIDTH) / widthAt(value, size))) : size;
  const held = widthAt(value, fitted) > TEXT_WIDTH ? ` textLength="${TEXT_WIDTH}" lengthAdjust="spacingAndGlyphs"` : '';
  return `<text x="${anchor === 'start' ? MARGIN : LABEL_WIDTH_DOTS / 2}" y="${y}" font-size="${fitted}"${held} text-anchor="${anchor}">${xmlText(value)}</text>`;
};

/**
 * The bars, drawn by bwip-js (which checks GS1 data: an SSCC's AI (00) and check digit), without
 * its own text, placed in the label's width at `y` as a nested `<svg>` scaled to fit.
 */
const barcodeSvg = (data: string, gs1: boolean, y: number): string => {
  const options = { bcid: gs1 ? 'gs1-128' : 'code128', text: data, scale: 1, height: 20, includetext: false };
  const drawn = gs1 ? gs1_128(options, drawingSVG()) : code128(options, drawingSVG());
  const [, width = '0', height = '0'] = /viewBox="0 0 (\d+(?:\.\d+)?) (\d+(?:\.\d+)?)"/.exec(drawn) ?? [];
  const fit = Math.min(LABEL_WIDTH_DOTS - 2 * MARGIN, Number(width) * 4);
  const x = (LABEL_WIDTH_DOTS - fit) / 2;
  return drawn.replace(
    /^<svg [^>]*>/,
    `<svg x="${x}" y="${y}" width="${fit}" height="${BARCODE_HEIGHT}" viewBox="0 0 ${width} ${height}" preserveAspectRatio="none">`,
  );
};

/**
 * The label as an SVG document of 4 × 6 inches, its coordinates the dots of a 203 dpi label
 * (812 × 1218): the text as `<text>` elements (any script the device's fonts draw), the number as
 * a barcode with its human-readable text beneath.
 *
 * @example
 * ```ts
 * svgLabel({ title: 'BOX', number: 'BOX-1001', lines: [['CUSTOMER', '杭州西湖食品']] }).includes('杭州西湖食品'); // true
 * ```
 */
export const svgLabel = (label: LabelContent): string => {
  const barcode = barcodeOf(label.number);
  const barcodeY = LABEL_HEIGHT_DOTS - MARGIN - 320;
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<svg xmlns="http://www.w3.org/2000/svg" width="4in" height="6in" viewBox="0 0 ${LABEL_WIDTH_DOTS} ${LABEL_HEIGHT_DOTS}">`,
    `<rect width="${LABEL_WIDTH_DOTS}" height="${LABEL_HEIGHT_DOTS}" fill="#ffffff"/>`,
    `<g font-family="${xmlText(FONTS)}" fill="#000000">`,
    text(MARGIN + 60, 70, label.title),
    ...label.lines.map(([caption, value], i) => text(200 + i * 80, 44, `${caption}: ${value}`)),
    text(barcodeY + BARCODE_HEIGHT + 50, 44, barcode.text, 'middle'),
    '</g>',
    barcodeSvg(barcode.data, barcode.symbology === 'gs1-128', barcodeY),
    '</svg>',
    '',
  ].join('\n');
};
