import { AppError } from '../errors/app-error.ts';
import type { Db } from '../db/types.ts';
import { isoTime } from '../db/write.ts';
import type { ZongpaiListResponse } from '../contract/responses.ts';

/** A list position: the last zongpai's registration time (to the microsecond) and number. Opaque to clients. */
interface Position {
  readonly at: string;
  readonly zongpaiNo: string;
}

// A zongpai number holds no NUL (no PostgreSQL text does): a cursor with one was not issued here.
const POSITION = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})\.(\d{6})Z\|([^|\u0000]{1,64})$/;

const encodePosition = (p: Position): string => Buffer.from(`${p.at}|${p.zongpaiNo}`, 'utf8').toString('base64url');

/**
 * Reads a cursor back; anything that did not come from this list is a 400, so that nothing a
 * client forges reaches the database as an error (a 30 February, a year 0000).
 */
const decodePosition = (text: string): Position => {
  const match = POSITION.exec(Buffer.from(text, 'base64url').toString('utf8'));
  const [, seconds = '', micros = '', zongpaiNo = ''] = match ?? [];
  const at = new Date(`${seconds}Z`);
  if (
    match === null ||
    Number.isNaN(at.getTime()) ||
    at.toISOString().slice(0, 19) !== seconds ||
    seconds.startsWith('0000')
  ) {
    throw new AppError('VALIDATION_ERROR', { field: 'cursor', reason: 'not_a_cursor' });
  }
  return { at: `${seconds}.${micros}Z`, zongpaiNo };
};

/**
 * One page of zongpais, newest registration first: an index range scan on (created_at, zongpai_no)
 * (by status or not) from the cursor, stopped by the LIMIT; each zongpai's boxes are counted
 * through the box index of that zongpai only.
 */
const listSql = (byStatus: boolean) => `
SELECT z.zongpai_no, z.status, z.version, ${isoTime('z.created_at')} AS registered_at, ${isoTime('z.closed_at')} AS closed_at,
       to_char(z.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS position,
       t.box_count, t.total_quantity
FROM cargo.zongpai z
CROSS JOIN LATERAL (SELECT count(*)::integer AS box_count, COALESCE(sum(b.total_quantity), 0)::bigint AS total_quantity
                    FROM cargo.box b WHERE b.zongpai_no = z.zongpai_no) AS t
WHERE ${byStatus ? 'z.status = :status AND ' : ''}(z.created_at, z.zongpai_no) < (COALESCE(:before_at::timestamptz, 'infinity'), COALESCE(:before_no::text, ''))
ORDER BY ${byStatus ? 'z.status, ' : ''}z.created_at DESC, z.zongpai_no DESC
LIMIT :fetch`;

const LIST_ALL = listSql(false);
const LIST_BY_STATUS = listSql(true);

export interface ZongpaiListQuery {
  readonly status?: 'OPEN' | 'CLOSED' | undefined;
  readonly limit: number;
  readonly cursor?: string | undefined;
}

type Row = ZongpaiListResponse['zongpais'][number] & { position: string };

/**
 * Zongpais newest first, optionally only `OPEN` or `CLOSED`, a page at a time. One statement.
 *
 * @example
 * ```ts
 * const list = makeZongpaiList({ db });
 * const page = await list({ status: 'OPEN', limit: 20 });
 * const next = page.next_cursor === null ? undefined : await list({ status: 'OPEN', limit: 20, cursor: page.next_cursor });
 * ```
 */
export const makeZongpaiList =
  ({ db }: { db: Db }) =>
  async (query: ZongpaiListQuery): Promise<ZongpaiListResponse> => {
    const before = query.cursor === undefined ? undefined : decodePosition(query.cursor);
    const { rows } = await db.query<Row>(query.status === undefined ? LIST_ALL : LIST_BY_STATUS, {
      ...(query.status === undefined ? {} : { status: query.status }),
      before_at: before?.at ?? null,
      before_no: before?.zongpaiNo ?? null,
      fetch: query.limit + 1,
    });
    const page = rows.slice(0, query.limit);
    const last = rows.length > query.limit ? page[page.length - 1] : undefined;
    return {
      zongpais: page.map(({ position: _position, ...zongpai }) => zongpai),
      next_cursor: last === undefined ? null : encodePosition({ at: last.position, zongpaiNo: last.zongpai_no }),
    };
  };
