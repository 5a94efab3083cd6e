import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../../lib/config.ts';
import { compileWrite, PROCEED, type WriteStatement } from '../../../lib/db/write.ts';
import { writeStatements } from '../../../lib/write-statements.ts';
import { gateProblems, positional } from '../../support/idempotency-gate.ts';

/** The idempotent form's own CTE that writes before the gate: the removal of an expired key. */
const GATE_OWN = ['expired'];

const settings = [{}, { ERP_BOX_VIEW: 'erp_b.box_plan', ITEM_CODE_MAX_LENGTH: '12', QUANTITY_MAX: '7' }];
const compiled = settings.flatMap((env) =>
  Object.entries(writeStatements(loadConfig(env))).map(([name, statement]) => [name, compileWrite(statement)] as const),
);

/** The statement as PostgreSQL's parser judges it, without compileWrite's own check (as in a bundle). */
const plainOf = (statement: WriteStatement): string =>
  `WITH prior AS (SELECT NULL::text AS request_hash, NULL::json AS result WHERE false),
request_key AS (SELECT NULL::text AS idempotency_key),
${statement.ctes}
${statement.select}`;

describe('every write statement, as PostgreSQL parses it', () => {
  it.each(compiled)('%s writes only behind the idempotency gate, with and without a key', (_name, write) => {
    const plain = gateProblems(write.plain);
    expect(plain.problems).toEqual([]);
    expect(plain.writes.length).toBeGreaterThan(0);
    const keyed = gateProblems(write.idempotent, GATE_OWN);
    expect(keyed.problems).toEqual([]);
    expect(keyed.writes).toEqual(expect.arrayContaining(['expired', 'stored', ...plain.writes]));
  });

  it.each(Object.entries(writeStatements(loadConfig({}))))('%s is refused once its gate is removed', (_name, s) => {
    const ungated = plainOf({ ctes: s.ctes.replaceAll(PROCEED, 'true'), select: s.select });
    expect(gateProblems(ungated).problems).not.toEqual([]);
  });

  it('finds the placeholders as PostgreSQL scans them: not a cast, a quoted text or a comment', () => {
    expect(positional(`SELECT :box_no, x::integer, ':no' /* :c */, $$ :d $$, :box_no, :limit -- :e`)).toBe(
      `SELECT $1, x::integer, ':no' /* :c */, $$ :d $$, $1, $2 -- :e`,
    );
  });
});

describe('what cannot pass for the gate', () => {
  const write = (ctes: string, select = 'SELECT 1') => plainOf({ ctes, select });
  const refused = (sql: string) => {
    console.log(gateProblems(sql).problems);
    expect(gateProblems(sql).problems).not.toEqual([]);
  };

  it('refuses a gate written in a comment', () => {
    refused(
      write(`saved AS (INSERT INTO cargo.zongpai (zongpai_no, created_by) SELECT :zongpai_no, :actor
  WHERE true /* AND ${PROCEED} */ RETURNING *)`),
    );
    refused(write(`gone AS (DELETE FROM cargo.box_item bi WHERE bi.box_no = :box_no -- AND ${PROCEED}\n)`));
  });

  it('refuses a gate written as dollar-quoted or quoted text', () => {
    refused(write(`gone AS (DELETE FROM cargo.box_item bi WHERE $$ AND ${PROCEED} $$ <> '')`));
    refused(write(`gone AS (DELETE FROM cargo.box_item bi WHERE $q$ ${PROCEED} $q$ <> '')`));
    refused(write(`gone AS (DELETE FROM cargo.box_item bi WHERE ' ${PROCEED} ' <> '')`));
  });

  it('finds a write after a comment or a text that holds a parenthesis or a quote', () => {
    refused(
      write(`picked AS (SELECT 1 AS n -- (\n), gone AS (DELETE FROM cargo.box_item bi WHERE bi.box_no = :box_no)`),
    );
    refused(write(`picked AS (SELECT 1 AS n -- the view's\n), gone AS (DELETE FROM cargo.box_item bi)`));
    refused(write(`picked AS (SELECT $$(it's$$ AS n), gone AS (DELETE FROM cargo.box_item bi)`));
  });

  it('refuses a gate that an OR, a full join or the optional side of an outer join undoes', () => {
    refused(write(`gone AS (DELETE FROM cargo.box_item bi WHERE bi.box_no = :box_no OR ${PROCEED})`));
    refused(
      write(`saved AS (INSERT INTO cargo.zongpai (zongpai_no, created_by) SELECT :zongpai_no, :actor WHERE ${PROCEED} RETURNING *),
logged AS (INSERT INTO cargo.box_event (box_no, version, action, actor)
  SELECT b.box_no, 1, 'SAVE', :actor FROM cargo.box b LEFT JOIN saved s ON true)`),
    );
    refused(
      write(`saved AS (INSERT INTO cargo.zongpai (zongpai_no, created_by) SELECT :zongpai_no, :actor WHERE ${PROCEED} RETURNING *),
logged AS (INSERT INTO cargo.box_event (box_no, version, action, actor)
  SELECT b.box_no, 1, 'SAVE', :actor FROM cargo.box b FULL JOIN saved s ON true)`),
    );
  });

  it('refuses a write from a CTE the gate does not cover, a VALUES list, or one branch of a UNION', () => {
    refused(
      write(`wanted AS (SELECT :zongpai_no AS zongpai_no),
saved AS (INSERT INTO cargo.zongpai (zongpai_no, created_by) SELECT w.zongpai_no, :actor FROM wanted w RETURNING *)`),
    );
    refused(write(`saved AS (INSERT INTO cargo.zongpai (zongpai_no, created_by) VALUES (:zongpai_no, :actor))`));
    refused(
      write(`saved AS (INSERT INTO cargo.zongpai (zongpai_no, created_by)
  SELECT :zongpai_no, :actor WHERE ${PROCEED} UNION ALL SELECT :other, :actor)`),
    );
  });

  it('refuses a call of a function that writes outside the gate, and a final part that writes', () => {
    refused(write(`kept AS (SELECT cargo.void_current(:cargo_no, :id::bigint) AS outcome)`));
    refused(write(`x AS (SELECT 1)`, 'DELETE FROM cargo.box_item'));
  });

  it('accepts a write behind the gate, from rows behind it, or on the kept side of an outer join', () => {
    const { writes, problems } = gateProblems(
      write(`saved AS (INSERT INTO cargo.zongpai (zongpai_no, created_by) SELECT :zongpai_no, :actor WHERE ${PROCEED} RETURNING *),
answered AS (SELECT * FROM saved),
logged AS (INSERT INTO cargo.box_event (box_no, version, action, actor) SELECT a.zongpai_no, 1, 'SAVE', :actor FROM answered a LEFT JOIN cargo.box b ON true),
counted AS (UPDATE cargo.event_sequence s SET last = s.last WHERE EXISTS (SELECT 1 FROM saved)),
gone AS (DELETE FROM cargo.box_item bi USING saved s WHERE bi.box_no = s.zongpai_no),
kept AS (SELECT cargo.void_current(s.zongpai_no, 1) FROM saved s)`),
    );
    expect(problems).toEqual([]);
    expect(writes).toEqual(['saved', 'logged', 'counted', 'gone', 'kept']);
  });
});

describe("compileWrite's own check (outside the function bundles)", () => {
  const refuses = (ctes: string, select = 'SELECT 1') =>
    expect(() => compileWrite({ ctes, select })).toThrow(/writes without the idempotency gate|must end in a SELECT/);

  it('takes no gate from a comment or a quoted text', () => {
    refuses(`gone AS (DELETE FROM cargo.box_item bi WHERE true /* AND ${PROCEED} */)`);
    refuses(`gone AS (DELETE FROM cargo.box_item bi WHERE true -- AND ${PROCEED}\n)`);
    refuses(`gone AS (DELETE FROM cargo.box_item bi WHERE $$ AND ${PROCEED} $$ <> '')`);
    refuses(`gone AS (DELETE FROM cargo.box_item bi WHERE $q$ ${PROCEED} $q$ <> '')`);
    refuses(`gone AS (DELETE FROM cargo.box_item bi WHERE E'\\' ${PROCEED}' <> '')`);
  });

  it('finds a write after a comment or a text that holds a parenthesis or a quote', () => {
    refuses(`picked AS (SELECT 1 AS n -- (\n), gone AS (DELETE FROM cargo.box_item bi WHERE bi.box_no = :box_no)`);
    refuses(`picked AS (SELECT 1 AS n /* the view's ( */), gone AS (DELETE FROM cargo.box_item bi)`);
    refuses(`picked AS (SELECT $$(it's$$ AS n), gone AS (DELETE FROM cargo.box_item bi)`);
    refuses(`picked AS (SELECT 1)`, '/* SELECT */ DELETE FROM cargo.box_item');
  });

  it('still reads a statement whose comments and texts hold quotes and parentheses', () => {
    const write = compileWrite({
      ctes: `-- the view's own (index
saved AS (INSERT INTO cargo.zongpai (zongpai_no, created_by) SELECT ':)' || $x$'($x$, :actor WHERE ${PROCEED} RETURNING *)`,
      select: 'SELECT * FROM saved',
    });
    expect(gateProblems(write.plain).problems).toEqual([]);
  });
});
