import { BeginTransactionCommand, CommitTransactionCommand, ExecuteStatementCommand } from '@aws-sdk/client-rds-data';
import { describe, expect, it } from 'vitest';
import { ARNS, BACKENDS, failure, freshTableEachTest, useFixture } from './harness.ts';

describe.each(BACKENDS)('ExecuteStatement on %s', (kind) => {
  const fx = useFixture(kind);
  freshTableEachTest(
    fx,
    'box',
    'box_no text PRIMARY KEY, qty int4, packed_at timestamptz, info jsonb, id uuid, weight numeric(8,3), day date, slot time',
  );

  it('binds named parameters, the same name several times', async () => {
    const { records } = await fx.exec('SELECT :a || :b || :a AS s, :n + 1 AS n', [
      { name: 'a', value: { stringValue: 'x' } },
      { name: 'b', value: { stringValue: 'y' } },
      { name: 'n', value: { longValue: 41 } },
    ]);
    expect(records?.[0]).toEqual([{ stringValue: 'xyx' }, { longValue: 42 }]);
  });

  it('counts inserted, updated and deleted rows in numberOfRecordsUpdated, also with RETURNING', async () => {
    const insert = await fx.exec("INSERT INTO box (box_no, qty) VALUES ('A', 1), ('B', 2) RETURNING box_no");
    expect(insert).toMatchObject({
      numberOfRecordsUpdated: 2,
      generatedFields: [],
      records: [[{ stringValue: 'A' }], [{ stringValue: 'B' }]],
    });
    expect((await fx.exec('UPDATE box SET qty = qty + 1')).numberOfRecordsUpdated).toBe(2);
    expect((await fx.exec('SELECT * FROM box')).numberOfRecordsUpdated).toBe(0);
    const remove = await fx.exec("DELETE FROM box WHERE box_no = 'A'");
    expect(remove.numberOfRecordsUpdated).toBe(1);
    expect(remove.records).toBeUndefined();
  });

  it('refuses a plain string into a timestamptz column without typeHint TIMESTAMP', async () => {
    const params = [{ name: 'at', value: { stringValue: '2026-11-21 08:30:00' } }];
    const error = await failure(fx.exec("INSERT INTO box (box_no, packed_at) VALUES ('A', :at)", params));
    expect(error.name).toBe('DatabaseErrorException');
    expect(error.message).toMatch(
      /^ERROR: column "packed_at" is of type timestamp with time zone but expression is of type text\n/,
    );
    expect(error.message).toMatch(/; SQLState: 42804$/);
  });

  it('binds stringValues by typeHint: TIMESTAMP, JSON, UUID, DECIMAL, DATE, TIME', async () => {
    await fx.exec(
      'INSERT INTO box (box_no, packed_at, info, id, weight, day, slot) VALUES (:no, :at, :info, :id, :w, :day, :slot)',
      [
        { name: 'no', value: { stringValue: 'A' } },
        { name: 'at', value: { stringValue: '2026-11-21 08:30:00.25' }, typeHint: 'TIMESTAMP' },
        { name: 'info', value: { stringValue: '{"k": "v"}' }, typeHint: 'JSON' },
        { name: 'id', value: { stringValue: 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11' }, typeHint: 'UUID' },
        { name: 'w', value: { stringValue: '1.5' }, typeHint: 'DECIMAL' },
        { name: 'day', value: { stringValue: '2026-11-21' }, typeHint: 'DATE' },
        { name: 'slot', value: { stringValue: '08:30:00' }, typeHint: 'TIME' },
      ],
    );
    const { records } = await fx.exec('SELECT packed_at, info, id, weight, day, slot FROM box');
    expect(records?.[0]).toEqual([
      { stringValue: '2026-11-21 08:30:00.25' },
      { stringValue: '{"k": "v"}' },
      { stringValue: 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11' },
      { stringValue: '1.500' },
      { stringValue: '2026-11-21' },
      { stringValue: '08:30:00' },
    ]);
  });

  it('refuses a TIMESTAMP with a UTC offset with BadRequestException and stores nothing (no silent drop of the offset)', async () => {
    const error = await failure(
      fx.exec("INSERT INTO box (box_no, packed_at) VALUES ('A', :at)", [
        { name: 'at', value: { stringValue: '2026-11-21 08:30:00+08:00' }, typeHint: 'TIMESTAMP' },
      ]),
    );
    expect(error.name).toBe('BadRequestException');
    expect(error.$metadata?.httpStatusCode).toBe(400);
    expect((await fx.exec('SELECT count(*) AS n FROM box')).records).toEqual([[{ longValue: 0 }]]);
  });

  it('binds doubles, booleans, blobs and NULL', async () => {
    const { records } = await fx.exec('SELECT :d * 2, NOT :b, :blob, :nothing::text', [
      { name: 'd', value: { doubleValue: 1.25 } },
      { name: 'b', value: { booleanValue: false } },
      { name: 'blob', value: { blobValue: Buffer.from('hi') } },
      { name: 'nothing', value: { isNull: true } },
    ]);
    expect(records?.[0]?.slice(0, 2)).toEqual([{ doubleValue: 2.5 }, { booleanValue: true }]);
    expect(Buffer.from(records?.[0]?.[2]?.blobValue ?? []).toString()).toBe('hi');
    expect(records?.[0]?.[3]).toEqual({ isNull: true });
  });

  it('rejects array parameters with BadRequestException', async () => {
    const error = await failure(fx.exec('SELECT :a', [{ name: 'a', value: { arrayValue: { longValues: [1, 2] } } }]));
    expect(error.name).toBe('BadRequestException');
    expect(error.message).toMatch(/Array parameters are not supported/);
  });

  it('rejects a placeholder with no parameter with BadRequestException', async () => {
    expect((await failure(fx.exec('SELECT :nope'))).name).toBe('BadRequestException');
  });

  it('rejects more than one statement with BadRequestException and runs none', async () => {
    const error = await failure(fx.exec("INSERT INTO box (box_no) VALUES ('A'); DELETE FROM box"));
    expect(error.name).toBe('BadRequestException');
    expect((await fx.exec('SELECT count(*) FROM box')).records?.[0]).toEqual([{ longValue: 0 }]);
  });

  it('reports a unique violation as DatabaseErrorException ending in "; SQLState: 23505"', async () => {
    await fx.exec("INSERT INTO box (box_no) VALUES ('X')");
    const error = await failure(fx.exec("INSERT INTO box (box_no) VALUES ('X')"));
    expect(error.name).toBe('DatabaseErrorException');
    expect(error.$metadata?.httpStatusCode).toBe(400);
    expect(error.message).toBe(
      'ERROR: duplicate key value violates unique constraint "box_pkey"\n  Detail: Key (box_no)=(X) already exists.; SQLState: 23505',
    );
  });

  it('refuses a result over 1 MiB with BadRequestException', async () => {
    const error = await failure(fx.exec("SELECT repeat('x', 1000) FROM generate_series(1, 1200)"));
    expect(error.name).toBe('BadRequestException');
    expect(error.message).toBe('Database returned more than the allowed response size limit');
  });

  it('returns a result just under 1 MiB', async () => {
    const { records } = await fx.exec("SELECT repeat('x', 1000) FROM generate_series(1, 900)");
    expect(records).toHaveLength(900);
  });

  // "The Data API size limit is 64 KB per row in the result set returned by the database"
  // (https://docs.aws.amazon.com/AmazonRDS/latest/AuroraUserGuide/data-api.limitations.html).
  it('refuses a result row over 64 KB with BadRequestException, however small the whole result', async () => {
    const error = await failure(fx.exec("SELECT 1 AS n, repeat('x', 40000) AS a, repeat('y', 30000) AS b"));
    expect(error.name).toBe('BadRequestException');
    expect(error.message).toMatch(/^Packet for query is too large/);
  });

  it('returns rows of just under 64 KB each', async () => {
    const { records } = await fx.exec(
      "SELECT repeat('x', 32000) AS a, repeat('y', 32000) AS b FROM generate_series(1, 3)",
    );
    expect(records).toHaveLength(3);
  });

  it('keeps autocommit when a bare BEGIN is sent without a transaction id', async () => {
    await fx.exec('BEGIN');
    await fx.exec("INSERT INTO box (box_no) VALUES ('A')");
    await fx.exec('ROLLBACK');
    expect((await fx.exec('SELECT count(*) FROM box')).records?.[0]).toEqual([{ longValue: 1 }]);
  });

  it('keeps no session state from one ExecuteStatement to the next: SET, temp tables', async () => {
    await fx.exec("SET TimeZone = 'Asia/Shanghai'");
    expect((await fx.exec('SHOW TimeZone')).records).toEqual([[{ stringValue: 'UTC' }]]);
    await fx.exec('CREATE TEMP TABLE scratch (x int4)');
    const error = await failure(fx.exec('SELECT x FROM scratch'));
    expect(error.name).toBe('DatabaseErrorException');
    expect(error.message).toMatch(/relation "scratch" does not exist/);
  });

  it('keeps no prepared statement from one ExecuteStatement to the next', async () => {
    await fx.exec('PREPARE counted AS SELECT count(*) FROM box');
    const error = await failure(fx.exec('EXECUTE counted'));
    expect(error.name).toBe('DatabaseErrorException');
    expect(error.message).toMatch(/prepared statement "counted" does not exist/);
  });

  it('keeps no session state after a transaction that SET it', async () => {
    const { transactionId } = await fx.client.send(new BeginTransactionCommand(ARNS));
    await fx.exec("SET TimeZone = 'Asia/Shanghai'", [], { transactionId });
    await fx.client.send(new CommitTransactionCommand({ ...ARNS, transactionId }));
    expect((await fx.exec('SHOW TimeZone')).records).toEqual([[{ stringValue: 'UTC' }]]);
  });

  it('requires sql, resourceArn and secretArn with BadRequestException', async () => {
    const noSql = failure(
      fx.client.send(new ExecuteStatementCommand({ ...ARNS, sql: undefined as unknown as string })),
    );
    const noArn = failure(
      fx.client.send(
        new ExecuteStatementCommand({ ...ARNS, resourceArn: undefined as unknown as string, sql: 'SELECT 1' }),
      ),
    );
    const noSecret = failure(
      fx.client.send(
        new ExecuteStatementCommand({ ...ARNS, secretArn: undefined as unknown as string, sql: 'SELECT 1' }),
      ),
    );
    for (const error of await Promise.all([noSql, noArn, noSecret])) expect(error.name).toBe('BadRequestException');
  });

  // The Data API's model: sql at most 65 536 characters, database at most 64, transactionId at most 192.
  it('refuses sql over 65 536 characters with BadRequestException, and takes one of exactly that length', async () => {
    const padded = (length: number) => `SELECT 1 AS n /*${'x'.repeat(length - 'SELECT 1 AS n /**/'.length)}*/`;
    expect((await fx.exec(padded(65_536))).records).toEqual([[{ longValue: 1 }]]);
    const error = await failure(fx.exec(padded(65_537)));
    expect(error.name).toBe('BadRequestException');
    expect(error.message).toBe(
      "1 validation error detected: Value at 'sql' failed to satisfy constraint: Member must have length less than or equal to 65536",
    );
  });

  it('refuses a database name over 64 characters and a transaction id over 192 with BadRequestException', async () => {
    const database = failure(fx.exec('SELECT 1', [], { database: 'd'.repeat(65) }));
    const transaction = failure(fx.exec('SELECT 1', [], { transactionId: 't'.repeat(193) }));
    for (const error of await Promise.all([database, transaction])) expect(error.name).toBe('BadRequestException');
  });
});
