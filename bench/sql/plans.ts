/** A node of PostgreSQL's EXPLAIN (FORMAT JSON) output, the fields the report reads. */
export interface PlanNode {
  readonly 'Node Type': string;
  readonly 'Relation Name'?: string;
  readonly Schema?: string;
  readonly 'Index Name'?: string;
  readonly Alias?: string;
  readonly 'CTE Name'?: string;
  readonly 'Subplan Name'?: string;
  readonly 'Parent Relationship'?: string;
  readonly Operation?: string;
  readonly 'Actual Rows'?: number;
  readonly 'Actual Loops'?: number;
  readonly 'Actual Total Time'?: number;
  readonly 'Index Cond'?: string;
  readonly Filter?: string;
  readonly 'Shared Hit Blocks'?: number;
  readonly 'Shared Read Blocks'?: number;
  readonly Plans?: readonly PlanNode[];
}

export interface ExplainOutput {
  readonly Plan: PlanNode;
  readonly 'Planning Time': number;
  readonly 'Execution Time': number;
}

const walk = (node: PlanNode, visit: (n: PlanNode, depth: number) => void, depth = 0): void => {
  visit(node, depth);
  for (const child of node.Plans ?? []) walk(child, visit, depth + 1);
};

const relation = (n: PlanNode) =>
  n['Relation Name'] === undefined ? '' : `${n.Schema === undefined ? '' : `${n.Schema}.`}${n['Relation Name']}`;

/** Sequential scans on the given (big) tables, e.g. `box_item`; EXPLAIN without VERBOSE names tables without schema. */
export const seqScans = (plan: PlanNode, big: readonly string[]): string[] => {
  const found: string[] = [];
  walk(plan, (n) => {
    if (n['Node Type'] === 'Seq Scan' && big.includes(n['Relation Name'] ?? '')) found.push(relation(n));
  });
  return [...new Set(found)];
};

/** Every index the plan reads, as `index (table)`. */
export const indexesUsed = (plan: PlanNode): string[] => {
  const found: string[] = [];
  walk(plan, (n) => {
    if (n['Index Name'] !== undefined) found.push(`${n['Index Name']}`);
  });
  return [...new Set(found)].sort();
};

/**
 * The plan as indented lines, one per node: the operation, the table and index, rows and time
 * (the abbreviated form docs/PERFORMANCE.md shows).
 *
 * @example
 * ```ts
 * renderPlan(explain.Plan); // ['Limit (rows 1, 0.04 ms)', '  Index Scan Backward using location_record_cargo_idx on cargo.location_record r ...']
 * ```
 */
export const renderPlan = (plan: PlanNode): string[] => {
  const lines: string[] = [];
  walk(plan, (n, depth) => {
    const parts = [
      n['Node Type'] + (n.Operation !== undefined && n['Node Type'] === 'ModifyTable' ? ` ${n.Operation}` : ''),
    ];
    if (n['Index Name'] !== undefined) parts.push(`using ${n['Index Name']}`);
    if (n['Relation Name'] !== undefined)
      parts.push(`on ${relation(n)}${n.Alias !== undefined && n.Alias !== n['Relation Name'] ? ` ${n.Alias}` : ''}`);
    if (n['CTE Name'] !== undefined) parts.push(`on ${n['CTE Name']}`);
    const label = n['Subplan Name'] === undefined ? '' : `[${n['Subplan Name']}] `;
    const loops = (n['Actual Loops'] ?? 1) > 1 ? ` × ${n['Actual Loops']} loops` : '';
    // A NOT IN shows here whether its list is hashed (one probe per row) or rescanned per row.
    const filter = n.Filter?.includes('SubPlan') === true ? ` filter ${n.Filter}` : '';
    lines.push(
      `${'  '.repeat(depth)}${label}${parts.join(' ')}${filter} (rows ${n['Actual Rows'] ?? '?'}${loops}, ${(n['Actual Total Time'] ?? 0).toFixed(3)} ms)`,
    );
  });
  return lines;
};
