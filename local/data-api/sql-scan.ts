/**
 * A lexer just deep enough to find `:name` placeholders and statement separators in
 * PostgreSQL SQL, skipping everything in which a colon or semicolon is only text: string
 * literals ('', E'', U&''), quoted identifiers, dollar-quoted bodies, comments, `::` casts.
 */

/** A `:name` placeholder and where it sits in the SQL text (`end` is exclusive). */
export interface Placeholder {
  readonly name: string;
  readonly start: number;
  readonly end: number;
}

export interface SqlScan {
  /** Placeholders in order of appearance; the same name may appear several times. */
  readonly placeholders: readonly Placeholder[];
  /** True when SQL follows a `;`: the Data API accepts one statement per call. */
  readonly multipleStatements: boolean;
}

const IDENT_START = /[A-Za-z_\u0080-\uffff]/;
const IDENT_PART = /[A-Za-z0-9_$\u0080-\uffff]/;
/** `:name` or `:1`: the Data API takes a parameter named `1` for a numeric placeholder too. */
const NAME_START = /[A-Za-z0-9_]/;
const NAME_PART = /[A-Za-z0-9_]/;
const SPACE = /\s/;
const DOLLAR_TAG = /\$(?:[A-Za-z_\u0080-\uffff][A-Za-z0-9_\u0080-\uffff]*)?\$/y;

/** Index after a quoted run opened at `open`; `backslash` makes `\x` an escape (E'' strings). */
const skipQuoted = (sql: string, open: number, quote: string, backslash: boolean): number => {
  let i = open + 1;
  while (i < sql.length) {
    const c = sql[i];
    if (backslash && c === '\\') i += 2;
    else if (c === quote && sql[i + 1] === quote)
      i += 2; // doubled quote: an escaped quote
    else if (c === quote) return i + 1;
    else i += 1;
  }
  return sql.length; // unterminated: PostgreSQL will report it
};

/** Index after a block comment; PostgreSQL block comments nest. */
const skipBlockComment = (sql: string, open: number): number => {
  let depth = 0;
  let i = open;
  while (i < sql.length) {
    if (sql.startsWith('/*', i)) {
      depth += 1;
      i += 2;
    } else if (sql.startsWith('*/', i)) {
      depth -= 1;
      i += 2;
      if (depth === 0) return i;
    } else i += 1;
  }
  return sql.length;
};

const skipLineComment = (sql: string, open: number): number => {
  const newline = sql.indexOf('\n', open);
  return newline === -1 ? sql.length : newline + 1;
};

/** Index after a `$tag$...$tag$` body opened at `open`, or -1 when `$` opens no quote here. */
const skipDollarQuote = (sql: string, open: number): number => {
  DOLLAR_TAG.lastIndex = open;
  const tag = DOLLAR_TAG.exec(sql)?.[0];
  if (tag === undefined) return -1;
  const close = sql.indexOf(tag, open + tag.length);
  return close === -1 ? sql.length : close + tag.length;
};

const skipWhile = (sql: string, from: number, pattern: RegExp): number => {
  let i = from;
  while (i < sql.length && pattern.test(sql[i] ?? '')) i += 1;
  return i;
};

/** Index after a word (keyword or identifier) or after the literal it prefixes (E'..', U&'..'). */
const skipWord = (sql: string, from: number): number => {
  const end = skipWhile(sql, from + 1, IDENT_PART);
  const word = sql.slice(from, end);
  if (sql[end] === "'" && /^[Ee]$/.test(word)) return skipQuoted(sql, end, "'", true);
  if (/^[Uu]$/.test(word) && sql.startsWith("&'", end)) return skipQuoted(sql, end + 1, "'", false);
  if (/^[Uu]$/.test(word) && sql.startsWith('&"', end)) return skipQuoted(sql, end + 1, '"', false);
  return end;
};

/**
 * Scans SQL for named placeholders and extra statements.
 *
 * @example
 * ```ts
 * scanSql("SELECT :id::int8, ':no', $$:no$$ -- :no").placeholders; // [{ name: 'id', start: 7, end: 10 }]
 * scanSql('SELECT 1; SELECT 2').multipleStatements; // true
 * ```
 */
export const scanSql = (sql: string): SqlScan => {
  const placeholders: Placeholder[] = [];
  let afterSemicolon = false;
  let multipleStatements = false;
  let i = 0;
  while (i < sql.length) {
    const c = sql[i] ?? '';
    if (sql.startsWith('--', i)) {
      i = skipLineComment(sql, i);
      continue;
    }
    if (sql.startsWith('/*', i)) {
      i = skipBlockComment(sql, i);
      continue;
    }
    if (SPACE.test(c)) {
      i += 1;
      continue;
    }
    if (c === ';') {
      afterSemicolon = true;
      i += 1;
      continue;
    }
    if (afterSemicolon) multipleStatements = true;
    if (c === "'") i = skipQuoted(sql, i, "'", false);
    else if (c === '"') i = skipQuoted(sql, i, '"', false);
    else if (IDENT_START.test(c)) i = skipWord(sql, i);
    else if (c === '$')
      i = /[0-9]/.test(sql[i + 1] ?? '') ? skipWhile(sql, i + 1, /[0-9]/) : Math.max(skipDollarQuote(sql, i), i + 1);
    else if (c === ':' && sql[i + 1] === ':') i += 2;
    else if (c === ':' && NAME_START.test(sql[i + 1] ?? '')) {
      const end = skipWhile(sql, i + 1, NAME_PART);
      placeholders.push({ name: sql.slice(i + 1, end), start: i, end });
      i = end;
    } else if (/[0-9]/.test(c)) i = skipWhile(sql, i, /[0-9A-Za-z_.]/);
    else i += 1;
  }
  return { placeholders, multipleStatements };
};
