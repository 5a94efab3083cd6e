import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { makeBoxSave } from '../../../lib/box/index.ts';
import { loadConfig } from '../../../lib/config.ts';
import type { Db, Row } from '../../../lib/db/types.ts';
import { compileWrite, outcomeRows, PROCEED, runWrite, type Idempotency } from '../../../lib/db/write.ts';
import { AppError } from '../../../lib/errors/app-error.ts';
import { makeScanVoider } from '../../../lib/location/void.ts';
import { makeZongpaiClose } from '../../../lib/zongpai/close.ts';
import { makeZongpaiRegister } from '../../../lib/zongpai/register.ts';

/** A database that answers every statement with `rows`. */
const answering = (rows: readonly Row[]): Db => ({
  query: async <R extends Row>() => ({ rows: rows as R[], rowsUpdated: 0 }),
  transaction: () => Promise.reject(new Error('no transaction')),
});

/** What a call failed with. */
const failure = (call: Promise<unknown>) =>
  call.then(
    () => undefined,
    (error: unknown) => error,
  );

/** A failure that is no answer of the catalogue: the error responder answers it 500 INTERNAL_ERROR. */
const internal = async (call: Promise<unknown>, pattern: RegExp) => {
  const error = await failure(call);
  expect(error).toBeInstanceOf(Error);
  expect(error).not.toBeInstanceOf(AppError);
  expect((error as Error).message).toMatch(pattern);
};

const registered = compileWrite({
  ctes: `registered AS (INSERT INTO cargo.zongpai (zongpai_no, created_by) SELECT :zongpai_no, 'olga' WHERE ${PROCEED} RETURNING *)`,
  select: 'SELECT r.zongpai_no, r.version FROM registered r',
  row: z.object({ zongpai_no: z.string(), version: z.int() }),
});
const idem: Idempotency = { caller: 'olga', key: 'k-1', route: 'POST /v1/zongpai', hash: 'h', ttlHours: 1 };

describe('a write statement’s answer rows, parsed by its schema', () => {
  it('answers the rows as the schema reads them', async () => {
    const rows = await runWrite(answering([{ zongpai_no: 'PLT-1', version: 1, extra: 'x' }]), registered, {});
    expect(rows).toEqual([{ zongpai_no: 'PLT-1', version: 1 }]);
  });

  it('fails as an internal error on a row the schema refuses, fresh or replayed under a key', async () => {
    await internal(runWrite(answering([{ zongpai_no: 'PLT-1', version: '1' }]), registered, {}), /row 0 .*version/);
    await internal(runWrite(answering([{ version: 1 }]), registered, {}), /zongpai_no/);
    const replay = [{ replay_hash: 'h', replay_shape: 1, row: { zongpai_no: 'PLT-1', version: 1.5 } }];
    await internal(runWrite(answering(replay), registered, {}, idem), /version/);
  });

  it('leaves the rows of a statement that declares no schema as they are', () => {
    expect(outcomeRows(undefined, [{ a: 1 }])).toEqual([{ a: 1 }]);
  });
});

describe('the service’s writes on an answer of another shape', () => {
  const config = loadConfig({});
  const boxRow = {
    error_code: null,
    error_value: null,
    error_reason: null,
    error_planned: null,
    error_version: null,
    error_other: null,
    box_no: 'BOX-1',
    zongpai_no: 'PLT-1',
    status: 'BOXED',
    version: 1,
    total_quantity: 2,
    saved_at: '2026-12-01T08:00:00.000Z',
    saved_by: 'olga',
    complete: true,
    items: [{ item_code: 'SKU-A', quantity: 2 }],
    ignored_lines: null,
  };
  const save = (row: Row) =>
    makeBoxSave({ db: answering([row]), config })({ box_no: 'BOX-1', zongpai_no: 'PLT-1' }, 'olga');

  it('saves a box from an answer of its shape', async () => {
    expect(await save(boxRow)).toMatchObject({ box_no: 'BOX-1', status: 'BOXED', version: 1 });
  });

  it('never answers a box from a row of another shape: a status, a version or an item it does not know', async () => {
    await internal(save({ ...boxRow, status: 'LOST' }), /status/);
    await internal(save({ ...boxRow, version: '1' }), /version/);
    await internal(save({ ...boxRow, items: [{ item_code: 'SKU-A' }] }), /items\.0\.quantity/);
  });

  it('never answers a problem from a row of another shape', async () => {
    await internal(save({ ...boxRow, error_code: 'ZONGPAI_CLOSED', error_value: 7 }), /error_value/);
  });

  it('never answers a zongpai, a registration or a void from an answer of another shape', async () => {
    const head = {
      part: 'head',
      box_no: null,
      data: { zongpai_no: 'PLT-1', status: 'CLOSED', version: 2, created_at: 'x', created_by: 'olga', closed_at: 'y' },
    };
    await internal(makeZongpaiClose({ db: answering([head]), config })('PLT-1', 'sam'), /head part.*closed_by/);
    await internal(makeZongpaiClose({ db: answering([{ ...head, part: 'pallet' }]), config })('PLT-1', 'sam'), /part/);
    await internal(
      makeZongpaiRegister({ db: answering([{ zongpai_no: 'PLT-1', is_box: false }]), config })(
        { zongpai_no: 'PLT-1' },
        'olga',
      ),
      /is_location/,
    );
    await internal(
      makeScanVoider({ db: answering([{ error_code: null, id: 42 }]) })({ cargo_no: 'B', id: '42', version: 1 }, 'sam'),
      /id/,
    );
  });
});
