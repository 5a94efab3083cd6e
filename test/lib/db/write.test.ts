import { describe, expect, it } from 'vitest';
import { compileWrite, errorCodeSql, PROCEED, statementErrorCode, type WriteStatement } from '../../../lib/db/write.ts';
import { loadConfig } from '../../../lib/config.ts';
import { writeStatements } from '../../../lib/write-statements.ts';
import type { ErrorCode } from '../../../lib/errors/catalogue.ts';

const statements = Object.entries(writeStatements(loadConfig({})));

describe('compileWrite and the idempotency gate', () => {
  it('compiles every write statement of the service', () => {
    for (const [, statement] of statements) expect(compileWrite(statement).idempotent).toContain(PROCEED);
  });

  it('refuses a write whose INSERT is not behind the idempotency gate', () => {
    const ungated: WriteStatement = {
      ctes: 'saved AS (INSERT INTO cargo.zongpai (zongpai_no, created_by) SELECT :zongpai_no, :actor RETURNING *)',
      select: 'SELECT * FROM saved',
    };
    expect(() => compileWrite(ungated)).toThrow(/"saved" writes without the idempotency gate/);
  });

  it('refuses an UPDATE or DELETE that is not behind the idempotency gate', () => {
    expect(() =>
      compileWrite({
        ctes: `moved AS (UPDATE cargo.box b SET version = b.version + 1 WHERE b.box_no = :box_no RETURNING b.*)`,
        select: 'SELECT * FROM moved',
      }),
    ).toThrow(/"moved" writes without the idempotency gate/);
    expect(() =>
      compileWrite({ ctes: `gone AS (DELETE FROM cargo.box_item bi WHERE bi.box_no = :box_no)`, select: 'SELECT 1' }),
    ).toThrow(/"gone" writes without the idempotency gate/);
  });

  it.each(statements)('refuses %s once its gate is removed', (_name, statement) => {
    const ungated = { ctes: statement.ctes.replaceAll(PROCEED, 'true'), select: statement.select };
    expect(() => compileWrite(ungated)).toThrow(/writes without the idempotency gate/);
  });

  it('accepts a write that writes only from the rows of a gated write', () => {
    const statement: WriteStatement = {
      ctes: `saved AS (INSERT INTO cargo.zongpai (zongpai_no, created_by) SELECT :zongpai_no, :actor WHERE ${PROCEED} RETURNING *),
logged AS (INSERT INTO cargo.box_event (box_no, version, action, actor) SELECT s.zongpai_no, 1, 'SAVE', :actor FROM saved s)`,
      select: 'SELECT * FROM saved',
    };
    expect(compileWrite(statement).plain).toContain('logged AS');
  });

  it('refuses a write that writes from a CTE that is not gated', () => {
    const statement: WriteStatement = {
      ctes: `wanted AS (SELECT :zongpai_no AS zongpai_no),
saved AS (INSERT INTO cargo.zongpai (zongpai_no, created_by) SELECT w.zongpai_no, :actor FROM wanted w RETURNING *)`,
      select: 'SELECT * FROM saved',
    };
    expect(() => compileWrite(statement)).toThrow(/"saved" writes without the idempotency gate/);
  });

  it('refuses a write statement whose final part writes', () => {
    expect(() =>
      compileWrite({ ctes: `x AS (SELECT 1 WHERE ${PROCEED})`, select: 'DELETE FROM cargo.box_item' }),
    ).toThrow(/must end in a SELECT/);
  });
});

describe('error codes in write statements', () => {
  it('renders a catalogue code as a SQL literal', () => {
    expect(errorCodeSql('ZONGPAI_CLOSED')).toBe("'ZONGPAI_CLOSED'");
  });

  it('refuses a code the catalogue does not know', () => {
    // @ts-expect-error a misspelt code does not compile
    expect(() => errorCodeSql('ZONGPAI_CLOSD' satisfies ErrorCode)).toThrow(RangeError);
  });

  it('reads a catalogue code or none from a statement, and fails on an unknown one', () => {
    expect(statementErrorCode('VERSION_CONFLICT')).toBe('VERSION_CONFLICT');
    expect(statementErrorCode(null)).toBeNull();
    expect(() => statementErrorCode('NOT_BOXED')).toThrow(/unknown error code "NOT_BOXED"/);
    expect(() => statementErrorCode('ZONGPAI_CLOSD')).toThrow(/unknown error code/);
  });

  it.each(statements)('%s answers only with catalogue codes', (_name, statement) => {
    const { idempotent } = compileWrite(statement);
    const codes = [...idempotent.matchAll(/AS rank, (\S+) AS error_code/g)].map((m) => m[1]);
    expect(idempotent.match(/AS rank\b/g)?.length ?? 0).toBe(codes.length);
    for (const literal of codes)
      expect(statementErrorCode(/^'([A-Z_]+)'$/.exec(literal ?? '')?.[1] ?? literal)).not.toBeNull();
  });

  it('finds the codes of every box write', () => {
    const codesOf = (name: string) =>
      new Set(
        [
          ...compileWrite(writeStatements(loadConfig({}))[name] as WriteStatement).plain.matchAll(
            /AS rank, '(\w+)' AS error_code/g,
          ),
        ].map((m) => m[1]),
      );
    expect(codesOf('box-save')).toEqual(
      new Set([
        'BOX_NOT_FOUND',
        'ERP_PLAN_INVALID',
        'INVALID_ZONGPAI',
        'ZONGPAI_NOT_FOUND',
        'ZONGPAI_CLOSED',
        'ITEM_NOT_IN_PLAN',
        'QUANTITY_EXCEEDS_PLAN',
      ]),
    );
    expect(codesOf('box-edit')).toEqual(
      new Set([
        'BOX_NOT_FOUND',
        'VERSION_CONFLICT',
        'INVALID_ZONGPAI',
        'ZONGPAI_NOT_FOUND',
        'ZONGPAI_CLOSED',
        'ITEM_NOT_IN_PLAN',
        'QUANTITY_EXCEEDS_PLAN',
      ]),
    );
    expect(codesOf('box-undo')).toEqual(new Set(['BOX_NOT_FOUND', 'VERSION_CONFLICT', 'ZONGPAI_CLOSED']));
  });
});
