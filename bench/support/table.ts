/**
 * A Markdown table, so that what `npm run bench` prints can be pasted into docs/PERFORMANCE.md
 * as it is. Columns whose every cell looks numeric are right-aligned.
 *
 * @example
 * ```ts
 * console.log(table(['route', 'calls'], [['GET /v1/box/info', '1']]));
 * ```
 */
export const table = (headers: readonly string[], rows: readonly (readonly string[])[]): string => {
  const numeric = headers.map(
    (_, c) => rows.length > 0 && rows.every((r) => /^[-+]?[\d.,]+( ?(ms|KB|×|%))?$|^–$/.test(r[c] ?? '')),
  );
  const widths = headers.map((h, c) => Math.max(h.length, 3, ...rows.map((r) => (r[c] ?? '').length)));
  const line = (cells: readonly string[]) =>
    `| ${cells.map((cell, c) => (numeric[c] ? cell.padStart(widths[c] as number) : cell.padEnd(widths[c] as number))).join(' | ')} |`;
  const rule = `|${widths.map((w, c) => (numeric[c] ? `${'-'.repeat(w + 1)}:` : '-'.repeat(w + 2))).join('|')}|`;
  return [line(headers), rule, ...rows.map(line)].join('\n');
};
