/**
 * The idempotency gate checked on the statement PostgreSQL itself would read: each compiled write
 * statement is parsed by PostgreSQL's own parser (libpg-query), so that a comment, a quoted or
 * dollar-quoted text or a parenthesis inside one can neither hide a write nor stand in for the gate.
 *
 * A write statement is one SELECT whose WITH list holds its writes. Each data-modifying CTE
 * (INSERT, UPDATE, DELETE, MERGE, or a SELECT calling a function of the service that writes) must
 * be behind the gate: `NOT EXISTS (SELECT 1 FROM prior)` ({@link PROCEED}) among the conjuncts of
 * its WHERE, or a CTE behind the gate among the relations it reads every row from (its FROM, an
 * inner join, the kept side of an outer join, a DELETE's USING), or an EXISTS over one in its WHERE.
 * A CTE reached only through an OR, a full join or the optional side of an outer join gates nothing.
 */

import { loadModule, parseSync, scanSync } from 'libpg-query';
import { PROCEED } from '../../lib/db/write.ts';

await loadModule();

type Node = Record<string, unknown>;

/** Functions of the service that write, called from a SELECT of a write statement (migration 011). */
const WRITING_FUNCTIONS = new Set(['void_current']);

/**
 * The statement with its Data API placeholders (`:name`) as PostgreSQL's (`$n`), found by
 * PostgreSQL's own scanner: a `::` cast, a quoted text or a comment is never a placeholder.
 */
export const positional = (sql: string): string => {
  const { tokens } = scanSync(sql);
  const names = new Map<string, number>();
  let out = '';
  let at = 0;
  for (let i = 0; i < tokens.length - 1; i += 1) {
    const colon = tokens[i] as (typeof tokens)[number];
    const name = tokens[i + 1] as (typeof tokens)[number];
    if (colon.text !== ':' || name.start !== colon.end || !/^(?:[A-Za-z_][A-Za-z0-9_]*|[0-9]+)$/.test(name.text))
      continue;
    if (!names.has(name.text)) names.set(name.text, names.size + 1);
    out += `${sql.slice(at, colon.start)}$${String(names.get(name.text))}`;
    at = name.end;
  }
  return out + sql.slice(at);
};

/** A parse tree without its positions, for comparing two expressions. */
const shape = (node: unknown): string =>
  JSON.stringify(node, (key, value: unknown) => (key === 'location' || key === 'stmt_len' ? undefined : value));

const parseOne = (sql: string): Node => {
  const { stmts } = parseSync(sql) as { stmts: { stmt: Node }[] };
  if (stmts.length !== 1) throw new Error(`a write statement is one statement, not ${String(stmts.length)}`);
  return (stmts[0] as { stmt: Node }).stmt;
};

const GATE = /* the parse tree of PROCEED itself */ shape(
  ((parseOne(`SELECT 1 WHERE ${PROCEED}`) as { SelectStmt: Node }).SelectStmt as Node).whereClause,
);

const list = (value: unknown): Node[] => (Array.isArray(value) ? (value as Node[]) : []);

/** The conjuncts of a WHERE: the arguments of its top-level ANDs. */
const conjuncts = (where: unknown): Node[] => {
  if (where === undefined || where === null) return [];
  const bool = (where as Node).BoolExpr as Node | undefined;
  if (bool?.boolop === 'AND_EXPR') return list(bool.args).flatMap(conjuncts);
  return [where as Node];
};

class GateCheck {
  readonly gated = new Set<string>();

  /** Whether a WHERE holds the gate, or an EXISTS over rows behind it, as one of its conjuncts. */
  whereGated(where: unknown): boolean {
    return conjuncts(where).some((c) => {
      if (shape(c) === GATE) return true;
      const sublink = c.SubLink as Node | undefined;
      return sublink?.subLinkType === 'EXISTS_SUBLINK' && this.selectGated(sublink.subselect);
    });
  }

  /** Whether a FROM item yields rows only when a CTE behind the gate does. */
  itemGated(item: Node): boolean {
    const range = item.RangeVar as Node | undefined;
    if (range !== undefined) return range.schemaname === undefined && this.gated.has(range.relname as string);
    const join = item.JoinExpr as Node | undefined;
    if (join !== undefined) {
      const left = this.itemGated(join.larg as Node);
      const right = this.itemGated(join.rarg as Node);
      switch (join.jointype) {
        case 'JOIN_INNER':
          return left || right || this.whereGated(join.quals);
        case 'JOIN_LEFT':
          return left;
        case 'JOIN_RIGHT':
          return right;
        default:
          return false;
      }
    }
    const sub = item.RangeSubselect as Node | undefined;
    if (sub !== undefined) return this.selectGated(sub.subquery);
    return false;
  }

  fromGated(items: unknown): boolean {
    return list(items).some((item) => this.itemGated(item));
  }

  /** Whether a SELECT answers rows only behind the gate (each branch of a UNION). */
  selectGated(node: unknown): boolean {
    const select = (node as Node | undefined)?.SelectStmt as Node | undefined;
    if (select === undefined) return false;
    if (select.op !== undefined && select.op !== 'SETOP_NONE')
      return (
        this.selectGated(select.larg === undefined ? undefined : { SelectStmt: select.larg }) &&
        this.selectGated(select.rarg === undefined ? undefined : { SelectStmt: select.rarg })
      );
    return this.whereGated(select.whereClause) || this.fromGated(select.fromClause);
  }

  /** What a CTE writes ('INSERT', ...), or null for one that reads only. */
  static writes(query: Node): string | null {
    if ('InsertStmt' in query) return 'INSERT';
    if ('UpdateStmt' in query) return 'UPDATE';
    if ('DeleteStmt' in query) return 'DELETE';
    if ('MergeStmt' in query) return 'MERGE';
    let calls = false;
    JSON.stringify(query, (key, value: unknown) => {
      if (key === 'FuncCall') {
        const names = list((value as Node).funcname).map((n) => (n.String as Node | undefined)?.sval);
        if (names.length === 2 && names[0] === 'cargo' && WRITING_FUNCTIONS.has(names[1] as string)) calls = true;
      }
      return value;
    });
    return calls ? 'a writing function' : null;
  }

  writeGated(query: Node): boolean {
    const insert = query.InsertStmt as Node | undefined;
    if (insert !== undefined) return this.selectGated(insert.selectStmt);
    const update = query.UpdateStmt as Node | undefined;
    if (update !== undefined) return this.whereGated(update.whereClause) || this.fromGated(update.fromClause);
    const del = query.DeleteStmt as Node | undefined;
    if (del !== undefined) return this.whereGated(del.whereClause) || this.fromGated(del.usingClause);
    const merge = query.MergeStmt as Node | undefined;
    if (merge !== undefined) return this.itemGated(merge.sourceRelation as Node);
    return this.selectGated(query);
  }
}

/** What {@link gateProblems} found in a statement: every write not behind the gate, and why. */
export interface GateReport {
  /** The data-modifying CTEs, in order. */
  readonly writes: readonly string[];
  readonly problems: readonly string[];
}

/**
 * Checks one compiled write statement (its SQL as it runs, `:name` placeholders and all). `exempt`
 * names CTEs of the idempotent form's own (the removal of an expired key, before the gate looks).
 *
 * @example
 * ```ts
 * gateProblems(compileWrite(statement).plain); // { writes: ['saved', ...], problems: [] }
 * ```
 */
export const gateProblems = (sql: string, exempt: readonly string[] = []): GateReport => {
  const root = parseOne(positional(sql));
  const select = root.SelectStmt as Node | undefined;
  if (select === undefined)
    return { writes: [], problems: [`the statement is a ${Object.keys(root).join()}, not a SELECT`] };
  const check = new GateCheck();
  const writes: string[] = [];
  const problems: string[] = [];
  for (const item of list((select.withClause as Node | undefined)?.ctes)) {
    const cte = item.CommonTableExpr as Node;
    const name = cte.ctename as string;
    const query = cte.ctequery as Node;
    const kind = GateCheck.writes(query);
    if (kind === null) {
      // A CTE that reads only rows behind the gate is behind it too (`answered`, `outbox_rows`).
      if (check.selectGated(query)) check.gated.add(name);
      continue;
    }
    writes.push(name);
    if (!exempt.includes(name) && !check.writeGated(query))
      problems.push(`CTE "${name}" (${kind}) writes without the idempotency gate`);
    check.gated.add(name);
  }
  return { writes, problems };
};
