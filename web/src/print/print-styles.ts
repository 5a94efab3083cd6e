/** The papers the app prints on: a 4 × 6 in label, an A4 sheet. */
export type Paper = 'label' | 'a4';

/**
 * The print view over the screen; printed, it is all there is of the page (the app's own
 * elements are not printed, and it flows over as many sheets as it needs).
 */
const VIEW = `
#print .print-view { position: fixed; top: 0; right: 0; bottom: 0; left: 0; z-index: 100; overflow: auto; background: #fff; padding: 0.5rem; }
#print .print-tools { display: flex; gap: 0.5rem; margin-bottom: 0.5rem; }
#print .print-tools button { flex: 1; }
@media print {
  html, body { margin: 0; padding: 0; min-height: 0; height: auto; display: block; }
  body > :not(#print) { display: none !important; }
  #print .print-view { position: static; overflow: visible; padding: 0; }
  #print .print-tools { display: none; }
}`;

/** The label: the service's SVG (its own size is 4 × 6 in) filling the page, with no margin. */
const LABEL = `
@page { size: 4in 6in; margin: 0; }
#print .print-label { display: block; width: 100%; max-width: 4in; height: auto; margin: 0 auto; border: 1px solid #ccc; }
@media print {
  #print .print-sheet { width: 4in; height: 6in; overflow: hidden; }
  #print .print-label { width: 4in; height: 6in; max-width: none; border: 0; }
}`;

/** The packing list: A4 portrait, the barcode at the top right, boxes never split over two sheets where they fit on one. */
const A4 = `
@page { size: A4 portrait; margin: 12mm; }
#print .packing { font-size: 14px; color: #000; }
#print .packing h1 { margin: 0 0 0.3rem; font-size: 1.5rem; }
#print .packing h2 { margin: 1rem 0 0.3rem; font-size: 1.1rem; }
#print .packing-head { display: flex; flex-wrap: wrap; justify-content: space-between; gap: 1rem; }
#print .packing-facts { display: grid; grid-template-columns: auto 1fr; gap: 0 0.6rem; margin: 0; }
#print .packing-facts dd { margin: 0; font-weight: 600; }
#print .packing-when { margin: 0.3rem 0 0; color: #444; }
/* Its quiet zones (10 modules either side) kept clear: 6 mm beside bars of about 0.5 mm. */
#print .packing-barcode { margin: 0; width: 10.2cm; max-width: 100%; padding: 0 6mm; text-align: center; }
#print .packing-barcode img { display: block; width: 100%; height: 2.2cm; }
#print .packing table { width: 100%; border-collapse: collapse; margin-top: 0.6rem; }
#print .packing th, #print .packing td { border: 1px solid #888; padding: 2px 5px; text-align: left; vertical-align: top; overflow-wrap: normal; }
#print .packing th { background: #eee; }
#print .packing .num { text-align: right; white-space: nowrap; }
#print .packing .code { white-space: nowrap; }
#print .packing td small { display: block; color: #444; }
#print .packing tbody { break-inside: avoid; }
#print .packing thead { display: table-header-group; }`;

export const PRINT_STYLES: Readonly<Record<Paper, string>> = { label: VIEW + LABEL, a4: VIEW + A4 };
