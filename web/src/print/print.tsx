import { render, type ComponentChildren } from 'preact';
import type { PackingList } from '../api-types.ts';
import type { AppState } from '../context.ts';
import { when } from '../i18n.ts';
import { labelBarcode, svgImage, type LabelBarcode } from './label-svg.ts';
import { PRINT_STYLES, type Paper } from './print-styles.ts';
import { wholePackingList } from './whole-list.ts';

/**
 * Printing, loaded at the first tap on a print button (its own chunk): a print view over the
 * screen, sized to its paper by an `@page` rule of its own, and the device's print dialog. The
 * view stays open after the dialog (to print again) until the operator taps Done.
 */
type App = Pick<AppState, 'api' | 't' | 'notify' | 'refused'>;

let shown: { root: HTMLElement; styles: CSSStyleSheet } | undefined;

/** Closes the print view and takes its page rules away: the app prints as itself again. */
const closeView = (): void => {
  if (shown === undefined) return;
  const { root, styles } = shown;
  render(null, root);
  root.remove();
  document.adoptedStyleSheets = document.adoptedStyleSheets.filter((sheet) => sheet !== styles);
  shown = undefined;
};

const PrintView = ({ app, paper, children }: { app: App; paper: Paper; children: ComponentChildren }) => (
  <div class="print-view" data-testid="print-view" data-paper={paper} role="dialog" aria-label={app.t('print')}>
    <div class="print-tools">
      <button type="button" class="primary" onClick={() => window.print()}>
        {app.t('print')}
      </button>
      <button type="button" onClick={closeView}>
        {app.t('printDone')}
      </button>
    </div>
    <div class="print-sheet">{children}</div>
  </div>
);

/**
 * Shows `content` in the print view for `paper` (its page rules added to the document as a
 * constructed style sheet: the Content-Security-Policy allows no inline style), waits for its
 * images, then opens the print dialog.
 */
const openView = async (app: App, paper: Paper, content: ComponentChildren): Promise<void> => {
  closeView();
  const styles = new CSSStyleSheet();
  styles.replaceSync(PRINT_STYLES[paper]);
  document.adoptedStyleSheets = [...document.adoptedStyleSheets, styles];
  const root = document.createElement('div');
  root.id = 'print';
  document.body.append(root);
  shown = { root, styles };
  render(
    <PrintView app={app} paper={paper}>
      {content}
    </PrintView>,
    root,
  );
  await Promise.all([...root.querySelectorAll('img')].map((img) => img.decode().catch(() => undefined)));
  window.print();
};

/** What a label is printed for: a zongpai or a box, by its number. */
export type LabelOf = { readonly zongpai: string } | { readonly box: string };

/** A zongpai's or a box's label, the service's SVG, printed at its size: 4 × 6 in. */
export const printLabel = async (app: App, of: LabelOf): Promise<void> => {
  const { api, t } = app;
  app.notify({ tone: 'info', text: t('preparingPrint') });
  const query = { format: 'svg' as const };
  const outcome = await api.run(
    'zongpai' in of
      ? api.client.GET('/v1/zongpai/{zongpai_no}/label', {
          params: { path: { zongpai_no: of.zongpai }, query },
          parseAs: 'text',
        })
      : api.client.GET('/v1/box/{box_no}/label', { params: { path: { box_no: of.box }, query }, parseAs: 'text' }),
  );
  if (!outcome.ok) return app.refused(outcome);
  const number = 'zongpai' in of ? of.zongpai : of.box;
  app.notify({ tone: 'info', text: `${t('printLabel')} · ${number.toUpperCase()}` });
  await openView(
    app,
    'label',
    <img class="print-label" data-testid="print-label" src={svgImage(outcome.data)} alt={number} />,
  );
};

const number = (n: number) => n.toLocaleString();

type PackedItem = PackingList['totals'][number];

/** An item's three cells, in a box's rows and in the totals alike: its code, its name, quantity and unit. */
const ItemCells = ({ item }: { item: PackedItem }) => (
  <>
    <td class="code">{item.item_code}</td>
    <td>{item.item_name ?? ''}</td>
    <td class="num">
      {number(item.quantity)} {item.unit ?? ''}
    </td>
  </>
);

/** The A4 packing list: the zongpai's barcode and counts, every box with its order, customer and items, the totals. */
const PackingSheet = ({ app, list, barcode }: { app: App; list: PackingList; barcode: LabelBarcode | undefined }) => {
  const { t } = app;
  return (
    <article class="packing" data-testid="print-packing-list">
      <header class="packing-head">
        <div>
          <h1>{t('packingList')}</h1>
          <dl class="packing-facts">
            <dt>{t('pallet')}</dt>
            <dd class="code" data-testid="print-zongpai-no">
              {list.zongpai_no}
            </dd>
            <dt>{t('status')}</dt>
            <dd>{list.status === 'OPEN' ? t('open') : t('closed')}</dd>
            <dt>{t('boxes')}</dt>
            <dd>{number(list.box_count)}</dd>
            <dt>{t('total')}</dt>
            <dd>{number(list.total_quantity)}</dd>
          </dl>
          <p class="packing-when">{t('printedAt', { when: when(new Date().toISOString()) })}</p>
        </div>
        {barcode !== undefined && (
          <figure class="packing-barcode">
            <img src={barcode.image} alt={list.zongpai_no} data-testid="print-barcode" />
            <figcaption>{barcode.text}</figcaption>
          </figure>
        )}
      </header>
      <table data-testid="print-boxes">
        <thead>
          <tr>
            <th>{t('box')}</th>
            <th>{t('order_')}</th>
            <th>{t('customer')}</th>
            <th>{t('item')}</th>
            <th>{t('itemName')}</th>
            <th class="num">{t('quantity')}</th>
          </tr>
        </thead>
        {list.boxes.map((b) => {
          const span = Math.max(1, b.items.length);
          const head = (
            <>
              <td rowSpan={span} class="code">
                <b>{b.box_no}</b>
                <small>
                  {t('total')} {number(b.total_quantity)}
                </small>
              </td>
              <td rowSpan={span}>{b.order_no ?? '–'}</td>
              <td rowSpan={span}>{b.customer_name ?? '–'}</td>
            </>
          );
          return (
            <tbody key={b.box_no} data-box={b.box_no}>
              {b.items.length === 0 && (
                <tr>
                  {head}
                  <td colSpan={3} />
                </tr>
              )}
              {b.items.map((i, n) => (
                <tr key={i.item_code}>
                  {n === 0 && head}
                  <ItemCells item={i} />
                </tr>
              ))}
            </tbody>
          );
        })}
      </table>
      <h2>{t('itemTotals')}</h2>
      <table data-testid="print-totals">
        <thead>
          <tr>
            <th>{t('item')}</th>
            <th>{t('itemName')}</th>
            <th class="num">{t('quantity')}</th>
          </tr>
        </thead>
        <tbody>
          {list.totals.map((i) => (
            <tr key={i.item_code}>
              <ItemCells item={i} />
            </tr>
          ))}
        </tbody>
      </table>
    </article>
  );
};

/**
 * A zongpai's packing list on A4, every page of it fetched first (boxes and totals), under the
 * barcode of its label.
 */
export const printPackingList = async (app: App, zongpaiNo: string): Promise<void> => {
  const { api, t } = app;
  app.notify({ tone: 'info', text: t('preparingPrint') });
  const path = { zongpai_no: zongpaiNo };
  const [label, list] = await Promise.all([
    api.run(
      api.client.GET('/v1/zongpai/{zongpai_no}/label', { params: { path, query: { format: 'svg' } }, parseAs: 'text' }),
    ),
    wholePackingList((query) =>
      api.run(api.client.GET('/v1/zongpai/{zongpai_no}/packing-list', { params: { path, query } })),
    ),
  ]);
  if (!list.ok) return app.refused(list);
  if (!label.ok) return app.refused(label);
  app.notify({ tone: 'info', text: `${t('printPackingList')} · ${list.data.zongpai_no}` });
  await openView(app, 'a4', <PackingSheet app={app} list={list.data} barcode={labelBarcode(label.data)} />);
};
