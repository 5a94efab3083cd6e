import { describe, expect, it } from 'vitest';
import { BACKENDS, failure, useFixture } from './harness.ts';

describe.each(BACKENDS)('Data API type mapping on %s', (kind) => {
  const fx = useFixture(kind);

  const one = async (sql: string) => (await fx.exec(sql)).records?.[0]?.[0];

  it('returns int2, int4 and int8 as longValue', async () => {
    const { records } = await fx.exec('SELECT 1::int2, 2::int4, 9007199254740991::int8');
    expect(records?.[0]).toEqual([{ longValue: 1 }, { longValue: 2 }, { longValue: 9007199254740991 }]);
  });

  it.each([
    ['void', 'SELECT pg_advisory_xact_lock(1)'],
    ['regtype', "SELECT 'int4'::regtype"],
    ['char', 'SELECT \'c\'::"char"'],
    ['oid', 'SELECT 26::oid'],
    ['interval', "SELECT interval '1 day'"],
    ['record', 'SELECT ROW(1, 2)'],
    // The type table lists BIT only as an array element (BIT[]), and no bit varying at all.
    ['bit', "SELECT B'1'"],
    ['varbit', "SELECT B'10'::varbit"],
    ['varbit[]', "SELECT ARRAY[B'10'::varbit]"],
    ['bit[] with elements of more than one bit', "SELECT ARRAY[B'101']"],
  ])('refuses a result column of type %s with UnsupportedResultException', async (type, sql) => {
    const error = await failure(fx.exec(sql));
    expect(error.name).toBe('UnsupportedResultException');
    expect(error.$metadata?.httpStatusCode).toBe(400);
    expect(error.message).toBe(`The result contains the unsupported data type ${type}.`);
  });

  it('returns name as stringValue and name[] as arrayValue.stringValues, as the AWS type table says', async () => {
    const { records } = await fx.exec("SELECT 'd'::name, ARRAY['a', NULL, 'b c']::name[], current_database()");
    expect(records?.[0]).toEqual([
      { stringValue: 'd' },
      { arrayValue: { stringValues: ['a', null, 'b c'] } },
      { stringValue: kind === 'postgres' ? expect.stringMatching(/^cargo_t_/) : 'postgres' },
    ]);
  });

  it('returns bit[] as arrayValue.booleanValues, one bit per element, as the AWS type table says', async () => {
    expect(await one("SELECT ARRAY[B'1', B'0', NULL]::bit[]")).toEqual({
      arrayValue: { booleanValues: [true, false, null] },
    });
  });

  it('formats name, name[] and bit[] as JSON strings and booleans', async () => {
    const out = await fx.exec("SELECT 'd'::name AS n, ARRAY['a']::name[] AS ns, ARRAY[B'1', B'0']::bit[] AS bits", [], {
      formatRecordsAs: 'JSON',
    });
    expect(JSON.parse(out.formattedRecords ?? '')).toEqual([{ n: 'd', ns: ['a'], bits: [true, false] }]);
  });

  it('describes name and bit[] columns as PgJDBC does', async () => {
    const { columnMetadata } = await fx.exec("SELECT 'd'::name AS n, ARRAY[B'1']::bit[] AS bits", [], {
      includeResultMetadata: true,
    });
    expect(columnMetadata?.[0]).toMatchObject({ typeName: 'name', type: 12 });
    expect(columnMetadata?.[1]).toMatchObject({ typeName: '_bit', type: 2003, arrayBaseColumnType: -7 });
  });

  it('refuses a multidimensional array with UnsupportedResultException, in records and in JSON', async () => {
    expect((await failure(fx.exec('SELECT ARRAY[[1,2],[3,4]]::int4[]'))).name).toBe('UnsupportedResultException');
    expect(
      (await failure(fx.exec('SELECT ARRAY[[1,2],[3,4]]::int4[] AS a', [], { formatRecordsAs: 'JSON' }))).name,
    ).toBe('UnsupportedResultException');
  });

  it('returns float4 and float8 as doubleValue', async () => {
    const { records } = await fx.exec('SELECT 1.5::float4, -2.25::float8');
    expect(records?.[0]).toEqual([{ doubleValue: 1.5 }, { doubleValue: -2.25 }]);
  });

  it('returns numeric as an exact stringValue', async () => {
    expect(await one('SELECT 12345678901234567890.125::numeric')).toEqual({ stringValue: '12345678901234567890.125' });
  });

  it('returns bool as booleanValue', async () => {
    const { records } = await fx.exec('SELECT true, false');
    expect(records?.[0]).toEqual([{ booleanValue: true }, { booleanValue: false }]);
  });

  it('returns text, varchar, char(n), uuid, json, jsonb and enums as stringValue', async () => {
    await fx.exec("CREATE TYPE mood AS ENUM ('happy', 'sad')");
    const { records } = await fx.exec(`SELECT 'a'::text, 'b'::varchar(5), 'c'::char(2),
      'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11'::uuid, '{"a": 1}'::json, '{"a": 1}'::jsonb, 'sad'::mood`);
    expect(records?.[0]).toEqual([
      { stringValue: 'a' },
      { stringValue: 'b' },
      { stringValue: 'c ' },
      { stringValue: 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11' },
      { stringValue: '{"a": 1}' },
      { stringValue: '{"a": 1}' },
      { stringValue: 'sad' },
    ]);
  });

  it('returns date as YYYY-MM-DD and time as HH:MM:SS', async () => {
    const { records } = await fx.exec("SELECT '2026-11-21'::date, '08:30:00.5'::time");
    expect(records?.[0]).toEqual([{ stringValue: '2026-11-21' }, { stringValue: '08:30:00.5' }]);
  });

  it('returns timestamp and timestamptz in UTC without a zone', async () => {
    const { records } = await fx.exec(
      "SELECT '2026-11-21 08:30:00.123456'::timestamp, '2026-11-21 10:30:00+02'::timestamptz, '2026-11-21 08:30:00Z'::timestamptz",
    );
    expect(records?.[0]).toEqual([
      { stringValue: '2026-11-21 08:30:00.123456' },
      { stringValue: '2026-11-21 08:30:00' },
      { stringValue: '2026-11-21 08:30:00' },
    ]);
  });

  it('runs every session in UTC', async () => {
    expect(await one('SHOW TimeZone')).toEqual({ stringValue: 'UTC' });
  });

  it('returns bytea as blobValue', async () => {
    const field = await one("SELECT '\\x68656c6c6f'::bytea");
    expect(Buffer.from(field?.blobValue ?? []).toString()).toBe('hello');
  });

  it('returns NULL as isNull', async () => {
    expect(await one('SELECT NULL::text')).toEqual({ isNull: true });
  });

  it('returns one-dimensional PostgreSQL arrays as arrayValue, with text', async () => {
    const { records } =
      await fx.exec(`SELECT ARRAY[1,2]::int8[], ARRAY[1.5]::float8[], ARRAY[true,false], ARRAY['a','b,c'],
      ARRAY['2026-11-21 08:30:00Z'::timestamptz]`);
    expect(records?.[0]).toEqual([
      { arrayValue: { longValues: [1, 2] } },
      { arrayValue: { doubleValues: [1.5] } },
      { arrayValue: { booleanValues: [true, false] } },
      { arrayValue: { stringValues: ['a', 'b,c'] } },
      { arrayValue: { stringValues: ['2026-11-21 08:30:00'] } },
    ]);
  });

  it('describes columns with includeResultMetadata', async () => {
    await fx.exec(
      'CREATE TABLE meta (id bigserial PRIMARY KEY, code varchar(32) NOT NULL, note text, at timestamptz, doc jsonb, qty numeric(10,2))',
    );
    const { columnMetadata } = await fx.exec('SELECT id, code, note, at, doc, qty, 1 AS one FROM meta', [], {
      includeResultMetadata: true,
    });
    const byLabel = Object.fromEntries((columnMetadata ?? []).map((c) => [c.label, c]));
    expect(byLabel.id).toMatchObject({
      name: 'id',
      typeName: 'int8',
      type: -5,
      nullable: 0,
      tableName: 'meta',
      isAutoIncrement: true,
      isSigned: true,
    });
    expect(byLabel.code).toMatchObject({
      typeName: 'varchar',
      type: 12,
      precision: 32,
      nullable: 0,
      isCaseSensitive: true,
    });
    expect(byLabel.note).toMatchObject({ typeName: 'text', nullable: 1 });
    expect(byLabel.at).toMatchObject({ typeName: 'timestamptz', type: 93 });
    expect(byLabel.doc).toMatchObject({ typeName: 'jsonb', type: 1111 });
    expect(byLabel.qty).toMatchObject({ typeName: 'numeric', type: 2, precision: 10, scale: 2 });
    expect(byLabel.one).toMatchObject({ typeName: 'int4', type: 4, tableName: '', nullable: 1 });
  });

  it('leaves columnMetadata out unless asked for', async () => {
    expect((await fx.exec('SELECT 1')).columnMetadata).toBeUndefined();
  });

  it('formats records as JSON per the AWS mapping when formatRecordsAs is JSON', async () => {
    const out = await fx.exec(
      `SELECT 7::int8 AS id, 1.5::float8 AS f, 2.50::numeric AS n, true AS b, 'x' AS s,
      '{"a": [1]}'::jsonb AS doc, '\\x6869'::bytea AS blob, ARRAY[1,2] AS arr, NULL::text AS nothing,
      '2026-11-21 08:30:00Z'::timestamptz AS at`,
      [],
      { formatRecordsAs: 'JSON', includeResultMetadata: true },
    );
    expect(out.records).toBeUndefined();
    expect(out.columnMetadata).toBeUndefined();
    expect(JSON.parse(out.formattedRecords ?? '')).toEqual([
      {
        id: 7,
        f: 1.5,
        n: '2.50',
        b: true,
        s: 'x',
        doc: '{"a": [1]}',
        blob: 'aGk=',
        arr: [1, 2],
        nothing: null,
        at: '2026-11-21 08:30:00',
      },
    ]);
  });

  it('refuses JSON format for duplicate column labels with BadRequestException', async () => {
    const error = await failure(fx.exec('SELECT 1 AS a, 2 AS a', [], { formatRecordsAs: 'JSON' }));
    expect(error.name).toBe('BadRequestException');
  });

  it('honours resultSetOptions for numeric and int8', async () => {
    const { records } = await fx.exec('SELECT 2.5::numeric, 3::numeric, 4::int8', [], {
      resultSetOptions: { decimalReturnType: 'DOUBLE_OR_LONG', longReturnType: 'STRING' },
    });
    expect(records?.[0]).toEqual([{ doubleValue: 2.5 }, { longValue: 3 }, { stringValue: '4' }]);
  });
});
