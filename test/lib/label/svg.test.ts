import { describe, expect, it } from 'vitest';
import { LABEL_WIDTH_DOTS } from '../../../lib/label/content.ts';
import { svgLabel } from '../../../lib/label/svg.ts';

/** The label's text lines as drawn: their words, size and the length they are held to, if any. */
const textLines = (svg: string) =>
  [
    ...svg.matchAll(
      /<text x="(\d+)" y="\d+" font-size="(\d+)"(?: textLength="(\d+)" lengthAdjust="spacingAndGlyphs")? text-anchor="start">([^<]*)<\/text>/g,
    ),
  ].map(([, x, size, length, words]) => ({
    x: Number(x),
    size: Number(size),
    length: length === undefined ? undefined : Number(length),
    words,
  }));

describe('an SVG label', () => {
  it('keeps a long customer name inside the label: a smaller size, then held to the width, never cut at the edge', () => {
    const svg = svgLabel({
      title: 'BOX',
      number: 'BOX-1001',
      lines: [
        ['ORDER', 'SO-24001'],
        ['CUSTOMER', 'Shanghai Lianhua Trading Company Limited, Pudong Distribution Centre'],
        ['CUSTOMER', '上海联华贸易有限公司浦东配送中心第三仓库'],
      ],
    });
    const [order, latin, chinese] = textLines(svg).slice(1);
    expect(order).toMatchObject({ size: 44, length: undefined });
    expect(latin?.size).toBeLessThan(44);
    expect((latin?.x ?? 0) + (latin?.length ?? Infinity)).toBeLessThanOrEqual(LABEL_WIDTH_DOTS - (latin?.x ?? 0));
    // 20 Chinese characters fit at a smaller size alone, each about as wide as the size.
    expect(chinese?.size).toBeLessThan(44);
    expect((chinese?.size ?? 44) * 20).toBeLessThanOrEqual(LABEL_WIDTH_DOTS - 2 * (chinese?.x ?? 0));
  });
});
