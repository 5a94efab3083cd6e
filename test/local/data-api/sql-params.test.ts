import { describe, expect, it } from 'vitest';
import { DataApiError } from '../../../local/data-api/errors.ts';
import { scanSql } from '../../../local/data-api/sql-scan.ts';
import { toPositional } from '../../../local/data-api/sql-params.ts';
import type { WireParameter } from '../../../local/data-api/sql-params.ts';

const names = (sql: string) => scanSql(sql).placeholders.map((p) => p.name);
const str = (name: string, stringValue: string, typeHint?: string): WireParameter => ({
  name,
  value: { stringValue },
  typeHint,
});

const badRequestOf = (fn: () => unknown): DataApiError => {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(DataApiError);
    expect((error as DataApiError).type).toBe('BadRequestException');
    return error as DataApiError;
  }
  throw new Error('expected BadRequestException');
};

describe('scanSql finds :name placeholders only in SQL code', () => {
  it.each([
    [
      'finds placeholders in order, repeated names included',
      'SELECT * FROM t WHERE a = :a AND b = :b_2 OR a = :a',
      ['a', 'b_2', 'a'],
    ],
    ['skips string literals, including doubled quotes', "SELECT ':a', 'it''s :b', :c", ['c']],
    ['skips E-strings with backslash-escaped quotes', "SELECT E'\\' :a', :b", ['b']],
    ['does not treat a backslash in a standard string as an escape', "SELECT 'C:\\', :path", ['path']],
    ['skips quoted identifiers', 'SELECT "col:a", ":b""x" FROM t WHERE c = :c', ['c']],
    ['skips dollar-quoted bodies, tagged or not', 'SELECT $$ :a $$, $fn$ :b $x$ :c $fn$, :d', ['d']],
    [
      'does not mistake $1 or an identifier containing $ for a dollar quote',
      'SELECT $1, a$b$ FROM t WHERE x = :x',
      ['x'],
    ],
    ['skips line and nested block comments', 'SELECT 1 -- :a\n, /* :b /* :c */ :d */ :e', ['e']],
    ['skips ::type casts, also right after a placeholder', "SELECT '1'::int, :at::timestamptz, x::text", ['at']],
  ])('%s', (_rule, sql, placeholders) => {
    expect(names(sql)).toEqual(placeholders);
  });

  it.each([
    ['flags SQL after a semicolon as a second statement', 'SELECT 1; SELECT 2', true],
    ['accepts a trailing semicolon, comment or whitespace', 'SELECT 1; -- done\n  ', false],
    ['ignores semicolons inside literals, quotes and bodies', 'SELECT \';\', ";", $$a; b$$ /* ; */', false],
  ])('%s', (_rule, sql, multiple) => {
    expect(scanSql(sql).multipleStatements).toBe(multiple);
  });
});

describe('toPositional turns named parameters into typed positional ones', () => {
  it('numbers each distinct name once and reuses it', () => {
    const statement = toPositional('SELECT :a, :b, :a', [str('a', 'x'), str('b', 'y')]);
    expect(statement).toEqual({ text: 'SELECT $1::text, $2::text, $1::text', values: ['x', 'y'] });
  });

  it('binds each value member with the type the Data API gives it', () => {
    const statement = toPositional('SELECT :l, :d, :b, :blob, :n', [
      { name: 'l', value: { longValue: 42 } },
      { name: 'd', value: { doubleValue: 1.5 } },
      { name: 'b', value: { booleanValue: true } },
      { name: 'blob', value: { blobValue: Buffer.from('hi').toString('base64') } },
      { name: 'n', value: { isNull: true } },
    ]);
    expect(statement).toEqual({
      text: 'SELECT $1::int8, $2::float8, $3::bool, $4::bytea, $5',
      values: ['42', '1.5', 'true', '\\x6869', null],
    });
  });

  it('casts each stringValue by its typeHint, numbering them in order', () => {
    const statement = toPositional('SELECT :p0, :p1, :p2, :p3, :p4, :p5', [
      str('p0', '2026-11-21 08:30:00.123', 'TIMESTAMP'),
      str('p1', '2026-11-21', 'DATE'),
      str('p2', '08:30:00', 'TIME'),
      str('p3', '12.50', 'DECIMAL'),
      str('p4', '{}', 'JSON'),
      str('p5', 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11', 'UUID'),
    ]);
    expect(statement.text).toBe('SELECT $1::timestamp, $2::date, $3::time, $4::numeric, $5::json, $6::uuid');
  });

  it.each([
    ['TIMESTAMP', '2026-11-21 08:30:00+08'],
    ['TIMESTAMP', '2026-11-21T08:30:00Z'],
    ['TIMESTAMP', 'tomorrow'],
    ['TIMESTAMP', '2026-02-30 08:30:00'],
    ['TIMESTAMP', '2026-11-21 24:00:00'],
    ['TIMESTAMP', '2026-11-21 08:30:00.1234567'],
    ['TIMESTAMP', '2026-11-21'],
    ['DATE', '2026-11-21 08:30:00'],
    ['DATE', 'today'],
    ['DATE', '2026-13-01'],
    ['DATE', '21/11/2026'],
    ['TIME', '08:30'],
    ['TIME', '08:30:00+08'],
    ['TIME', 'now'],
    ['DECIMAL', 'NaN'],
    ['DECIMAL', ' 12.5'],
    ['DECIMAL', '1,5'],
    ['UUID', '{a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11}'],
    ['UUID', 'a0eebc999c0b4ef8bb6d6bb9bd380a11'],
  ])('refuses typeHint %s with %j, outside its documented format, with BadRequestException', (hint, value) => {
    const error = badRequestOf(() => toPositional('SELECT :v', [str('v', value, hint)]));
    expect(error.message).toMatch(new RegExp(`typeHint ${hint} must have the format`));
  });

  it.each([
    ['TIMESTAMP', '2024-02-29 23:59:59', 'timestamp'],
    ['TIMESTAMP', '2026-11-21 08:30:00.5', 'timestamp'],
    ['TIME', '23:59:59.999', 'time'],
    ['DECIMAL', '-0.5', 'numeric'],
    ['DECIMAL', '1e3', 'numeric'],
    ['UUID', 'A0EEBC99-9C0B-4EF8-BB6D-6BB9BD380A11', 'uuid'],
  ])('accepts typeHint %s with %j in its documented format, bound as given and cast to %s', (hint, value, type) => {
    expect(toPositional('SELECT :v', [str('v', value, hint)])).toEqual({ text: `SELECT $1::${type}`, values: [value] });
  });

  it('leaves literals, comments and casts untouched', () => {
    const sql = "SELECT ':a' AS x, $$:a$$, :a::int -- :a\n";
    expect(toPositional(sql, [str('a', '1')]).text).toBe("SELECT ':a' AS x, $$:a$$, $1::text::int -- :a\n");
  });

  it('accepts numeric placeholders such as :1, bound to the parameter named "1"', () => {
    const statement = toPositional('SELECT :1 + :2, :1', [
      { name: '1', value: { longValue: 40 } },
      { name: '2', value: { longValue: 2 } },
    ]);
    expect(statement).toEqual({ text: 'SELECT $1::int8 + $2::int8, $1::int8', values: ['40', '2'] });
  });

  it('refuses a numeric placeholder without its parameter with BadRequestException', () => {
    expect(badRequestOf(() => toPositional('SELECT :1', [])).message).toMatch(/parameter: 1/);
  });

  it('rejects a placeholder without a parameter with BadRequestException', () => {
    expect(badRequestOf(() => toPositional('SELECT :missing', [])).message).toMatch(/missing/);
  });

  it('rejects array parameters with BadRequestException', () => {
    const error = badRequestOf(() =>
      toPositional('SELECT :a', [{ name: 'a', value: { arrayValue: { longValues: [1] } } }]),
    );
    expect(error.message).toMatch(/Array parameters are not supported/);
  });

  it('rejects several statements with BadRequestException', () => {
    badRequestOf(() => toPositional('DELETE FROM a; DELETE FROM b'));
  });

  it('rejects an unknown typeHint with BadRequestException', () => {
    badRequestOf(() => toPositional('SELECT :a', [str('a', 'x', 'BIGINT')]));
  });

  it('rejects a parameter with two value members with BadRequestException', () => {
    badRequestOf(() => toPositional('SELECT :a', [{ name: 'a', value: { stringValue: 'x', longValue: 1 } }]));
  });
});
