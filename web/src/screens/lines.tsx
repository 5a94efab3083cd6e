import type { ComponentChildren } from 'preact';
import { useLayoutEffect, useRef } from 'preact/hooks';
import type { Outcome } from '../api.ts';
import { Code } from '../code.tsx';
import { useApp } from '../context.ts';
import { number } from '../i18n.ts';
import type { LineState } from './progress.ts';

/**
 * A table of lines (items, boxes): its column heads, if it has them, and the screen's rows. A
 * `wide` one (of boxes, whose codes are kept whole) scrolls sideways in its own box when its
 * codes do not fit across the screen, its first column staying in view; the page never does.
 */
export const LinesTable = ({
  head,
  testId,
  wide = false,
  children,
}: {
  head?: readonly string[];
  testId?: string;
  wide?: boolean;
  children: ComponentChildren;
}) => {
  const table = (
    <table class="lines" data-testid={testId}>
      {head !== undefined && (
        <thead>
          <tr>
            {head.map((h) => (
              <th key={h}>{h}</th>
            ))}
          </tr>
        </thead>
      )}
      <tbody>{children}</tbody>
    </table>
  );
  return wide ? <div class="wide">{table}</div> : table;
};

/** An item line's first cell: its code, and under it in small what else names it. */
export const CodeCell = ({ code, note }: { code: string; note: string | null }) => (
  <td>
    {code}
    <small>{note ?? ''}</small>
  </td>
);

/** A box's cell: its number whole on one line, and under it in small what else is said of it. */
export const BoxCell = ({ box, note }: { box: string; note: string }) => (
  <td>
    <Code code={box} />
    <small>{note}</small>
  </td>
);

/**
 * Items planned against boxed, a line each, marked complete, short or over when `state` says;
 * the boxed column as the screen has it: a count, or a field to correct it. The `current` line
 * (the one just scanned, `seq` counting the scans) is highlighted and scrolled into view.
 */
export const ItemLines = <L extends { item_code: string; item_name: string | null }>({
  lines,
  testId,
  planned,
  boxed,
  state,
  current,
}: {
  lines: readonly L[];
  testId?: string;
  planned: (line: L) => number;
  boxed: (line: L) => ComponentChildren;
  state?: (line: L) => LineState;
  current?: { readonly item_code: string; readonly seq: number };
}) => {
  const { t } = useApp();
  const row = useRef<HTMLTableRowElement>(null);
  useLayoutEffect(() => {
    if (current !== undefined) row.current?.scrollIntoView({ block: 'nearest' });
  }, [current?.seq]);
  return (
    <LinesTable head={[t('item'), t('planned'), t('boxed')]} testId={testId}>
      {lines.map((line) => (
        <tr
          key={line.item_code}
          data-state={state?.(line)}
          {...(current?.item_code === line.item_code ? { ref: row, 'data-current': true } : {})}
        >
          <CodeCell code={line.item_code} note={line.item_name} />
          <td class="num">{number(planned(line))}</td>
          <td class="num">{boxed(line)}</td>
        </tr>
      ))}
    </LinesTable>
  );
};

/** How many of an item are boxed, as the operator types it; an emptied field is zero. */
export const QuantityInput = ({
  itemCode,
  value,
  max,
  onChange,
}: {
  itemCode: string;
  value: number;
  max?: number;
  onChange: (quantity: number) => void;
}) => {
  const { t } = useApp();
  return (
    <input
      class="qty"
      type="number"
      inputMode="numeric"
      min={0}
      max={max}
      value={value}
      aria-label={`${t('quantity')} ${itemCode}`}
      onChange={(e) => onChange(Number.isNaN(e.currentTarget.valueAsNumber) ? 0 : e.currentTarget.valueAsNumber)}
    />
  );
};

/** A listing of boxes the service sends a page at a time (an order's, a packing list's). */
interface BoxPages {
  readonly boxes: readonly {
    readonly box_no: string;
    readonly more_items: boolean;
    readonly items: readonly unknown[];
  }[];
  readonly box_count: number;
  readonly next_cursor: string | null;
}

/**
 * The boxes shown followed by the next page's: a box whose items went on (`more_items`) is the
 * next page's first box again, shown once with all its items.
 */
export const joinPages = <B extends BoxPages['boxes'][number]>(shown: readonly B[], next: readonly B[]): B[] => {
  const last = shown[shown.length - 1];
  const [first, ...rest] = next;
  if (last?.more_items !== true || first?.box_no !== last.box_no) return [...shown, ...next];
  return [...shown.slice(0, -1), { ...first, items: [...last.items, ...first.items] }, ...rest];
};

/**
 * Under a listing of boxes that has more pages: fetches the next one and shows it below the boxes
 * already there, with that page's counts and totals. Nothing when the last page is shown. A tap
 * repeated while the page loads shows the same result again (the boxes shown plus that page),
 * never the page twice.
 */
export const MoreBoxes = <L extends BoxPages>({
  shown,
  load,
  show,
}: {
  shown: L;
  /** The next page; undefined when a later scan superseded it (its answer is dropped). */
  load: (cursor: string) => Promise<Outcome<L> | undefined>;
  show: (listing: L) => void;
}) => {
  const app = useApp();
  const next = shown.next_cursor;
  if (next === null) return null;
  const more = async () => {
    const outcome = await load(next);
    if (outcome === undefined) return;
    if (!outcome.ok) return app.refused(outcome);
    show({ ...outcome.data, boxes: joinPages(shown.boxes, outcome.data.boxes) });
  };
  return (
    <button type="button" onClick={() => void more()}>
      {app.t('moreBoxes', { shown: shown.boxes.length, total: shown.box_count })}
    </button>
  );
};
