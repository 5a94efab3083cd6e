/**
 * The service's SVG labels as the app shows and prints them: as images (an `<img>` of a
 * `data:` URL, which the app's Content-Security-Policy allows and in which nothing of the
 * document runs or loads), never as markup put into the page.
 */
export const svgImage = (svg: string): string => `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`;

/** A label's barcode on its own: the bars as an image and the human-readable line beneath them. */
export interface LabelBarcode {
  readonly image: string;
  readonly text: string;
}

/**
 * The barcode of a label (the bars the service drew, lib/label/svg.ts: the label's nested
 * `<svg>`, and its centred text line), to put at the top of a packing list: the same symbol the
 * label carries, so the sheet scans as the zongpai's number. Undefined for a document that holds none.
 *
 * @example
 * ```ts
 * const barcode = labelBarcode(await labelText); // { image: 'data:image/svg+xml;…', text: '(00) 340123450000000017' }
 * ```
 */
export const labelBarcode = (svg: string): LabelBarcode | undefined => {
  const label = new DOMParser().parseFromString(svg, 'image/svg+xml').documentElement;
  const bars = label.querySelector(':scope > svg');
  if (label.localName !== 'svg' || bars === null) return undefined;
  // Placed on the label at its own position; on its own it starts at the corner.
  bars.removeAttribute('x');
  bars.removeAttribute('y');
  const text = label.querySelector('text[text-anchor="middle"]')?.textContent ?? '';
  return { image: svgImage(new XMLSerializer().serializeToString(bars)), text };
};
