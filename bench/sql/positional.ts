import { scanSql } from '../../local/data-api/sql-scan.ts';

/**
 * Named parameters as lib/ writes them (`:name`), for a direct connection: `$n` in their place,
 * found by the Data API emulator's own lexer, and the values in that order.
 *
 * @example
 * ```ts
 * positional('SELECT :a::int + :b + :a', { a: 1, b: 2 }); // { text: 'SELECT $1::int + $2 + $1', values: [1, 2] }
 * ```
 */
export const positional = (sql: string, params: Record<string, unknown>): { text: string; values: unknown[] } => {
  const names: string[] = [];
  let text = '';
  let copiedUpTo = 0;
  for (const { name, start, end } of scanSql(sql).placeholders) {
    if (!(name in params)) throw new Error(`no value for :${name}`);
    if (!names.includes(name)) names.push(name);
    text += `${sql.slice(copiedUpTo, start)}$${names.indexOf(name) + 1}`;
    copiedUpTo = end;
  }
  return { text: text + sql.slice(copiedUpTo), values: names.map((n) => params[n]) };
};
