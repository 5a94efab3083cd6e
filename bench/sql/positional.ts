/**
 * Named parameters as lib/ writes them (`:name`), for a direct connection: `$n`, outside quotes and
 * `::` casts, and the values in that order.
 */
export const positional = (sql: string, params: Record<string, unknown>): { text: string; values: unknown[] } => {
  const names: string[] = [];
  let text = '';
  let quote: string | null = null;
  for (let i = 0; i < sql.length; i += 1) {
    const ch = sql[i] as string;
    if (quote !== null) {
      if (ch === quote) quote = null;
      text += ch;
      continue;
    }
    if (ch === "'" || ch === '"') quote = ch;
    const name =
      ch === ':' && sql[i - 1] !== ':' && sql[i + 1] !== ':'
        ? /^[a-z_][a-z0-9_]*/.exec(sql.slice(i + 1))?.[0]
        : undefined;
    if (name === undefined) {
      text += ch;
      continue;
    }
    if (!(name in params)) throw new Error(`no value for :${name}`);
    if (!names.includes(name)) names.push(name);
    text += `$${names.indexOf(name) + 1}`;
    i += name.length;
  }
  return { text, values: names.map((n) => params[n]) };
};
