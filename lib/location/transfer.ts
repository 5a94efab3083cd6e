import { AppError } from '../errors/app-error.ts';
import type { Config } from '../config.ts';
import type { Db } from '../db/types.ts';
import {
  compileWrite,
  errorCodeSql,
  runWrite,
  statementErrorCode,
  type Idempotency,
  type WriteStatement,
} from '../db/write.ts';
import { isCargoPlaceSql } from '../location-register/cargo.ts';
import type { LocationRecord } from '../contract/common.ts';
import { RECORDS_SELECT, ScanRow, storedRecord, storeScansSql } from './locations.ts';

/** The most cargo one transfer moves. */
export const TRANSFER_MAX = 500;

/**
 * A transfer from `:from_location_code` to `:to_location_code`, in one statement: a scan at the
 * destination for every piece of cargo whose current location is the source (the current
 * locations kept there, an index range scan on `(location_code, cargo_no)`), except a box on a
 * zongpai that is here too or was scanned after the box (it follows its zongpai, as what is at a
 * location lists it). The destination answers as a scan's location does: a code that is cargo
 * (LOCATION_IS_CARGO), blocked (LOCATION_BLOCKED), and, when `:registered_only`, not registered
 * (LOCATION_NOT_FOUND, the source too); more than {@link TRANSFER_MAX} pieces is
 * TRANSFER_TOO_LARGE with their count. The scans are stored as a backlog's are, at the
 * destination's `off_shelf` (false where it is not registered), at the server's time: one that
 * another request recorded later for the same cargo stays current.
 */
export const transferStatement = (erpView: string): WriteStatement<ScanRow> => ({
  ctes: `
here AS (
  SELECT c.cargo_no, c.record_id, c.occurred_at
  FROM cargo.location_current c
  WHERE c.location_code = :from_location_code
),
pieces AS (
  SELECT h.cargo_no, :to_location_code::text AS location_code, NULL::timestamptz AS scanned_at, NULL::text AS device_id,
         row_number() OVER (ORDER BY h.cargo_no) AS ord
  FROM here h
  LEFT JOIN LATERAL (SELECT x.zongpai_no FROM cargo.box x WHERE x.box_no = h.cargo_no AND x.status = 'BOXED' LIMIT 1) b ON true
  LEFT JOIN LATERAL (SELECT y.occurred_at, y.record_id, y.location_code FROM cargo.location_current y WHERE y.cargo_no = b.zongpai_no LIMIT 1) zc
    ON true
  WHERE NOT COALESCE((zc.occurred_at, zc.record_id) > (h.occurred_at, h.record_id) OR zc.location_code = :from_location_code, false)
),
destination AS (
  SELECT l.off_shelf, l.blocked FROM cargo.location l WHERE l.location_code = :to_location_code
),
problem AS (
  SELECT p.* FROM (
    SELECT CASE WHEN ${isCargoPlaceSql(erpView, ':to_location_code')} THEN ${errorCodeSql('LOCATION_IS_CARGO')}
                WHEN EXISTS (SELECT 1 FROM destination d WHERE d.blocked) THEN ${errorCodeSql('LOCATION_BLOCKED')}
                WHEN :registered_only::boolean AND NOT EXISTS (SELECT 1 FROM destination) THEN ${errorCodeSql('LOCATION_NOT_FOUND')}
                WHEN :registered_only::boolean AND NOT EXISTS (SELECT 1 FROM cargo.location l WHERE l.location_code = :from_location_code)
                  THEN ${errorCodeSql('LOCATION_NOT_FOUND')}
                WHEN (SELECT count(*) FROM pieces) > ${String(TRANSFER_MAX)} THEN ${errorCodeSql('TRANSFER_TOO_LARGE')}
           END AS code,
           CASE WHEN :registered_only::boolean AND EXISTS (SELECT 1 FROM destination)
                 AND NOT EXISTS (SELECT 1 FROM cargo.location l WHERE l.location_code = :from_location_code)
                THEN :from_location_code ELSE :to_location_code END AS location_code,
           (SELECT count(*) FROM pieces)::integer AS pieces
  ) p
  WHERE p.code IS NOT NULL
),
${storeScansSql({
  from: 'pieces s',
  gate: ' AND NOT EXISTS (SELECT 1 FROM problem)',
  offShelf: 'COALESCE((SELECT d.off_shelf FROM destination d), false)',
})}`,
  select: `
SELECT * FROM (${RECORDS_SELECT}) AS records
UNION ALL
SELECT p.code, p.pieces, p.location_code, NULL, NULL, NULL, NULL, NULL, NULL, NULL
FROM problem p`,
  row: ScanRow,
});

type TransferSettings = Pick<Config, 'erpBoxView' | 'locationsRegisteredOnly'>;

/**
 * POST …/locations/{location_code}/transfer: moves everything at a location to another in one
 * statement, answered as a backlog is (`records: []` when nothing was there).
 *
 * @example
 * ```ts
 * const transfer = makeLocationTransfer({ db, config });
 * await transfer('STAGE-2', 'DOCK-3', 'olga'); // { records: [...] }
 * ```
 */
export const makeLocationTransfer = ({ db, config }: { db: Db; config: TransferSettings }) => {
  const write = compileWrite(transferStatement(config.erpBoxView));
  return async (
    from: string,
    to: string,
    recordedBy: string,
    idempotency?: Idempotency,
  ): Promise<{ records: LocationRecord[] }> => {
    const rows = await runWrite(
      db,
      write,
      {
        from_location_code: from,
        to_location_code: to,
        recorded_by: recordedBy,
        registered_only: config.locationsRegisteredOnly,
      },
      idempotency,
    );
    for (const row of rows) {
      const code = statementErrorCode(row.error_code);
      if (code === 'TRANSFER_TOO_LARGE') throw new AppError(code, { value: from, limit: row.idx ?? undefined });
      if (code !== null)
        throw new AppError(code, {
          value: row.location_code,
          field: row.location_code === from && from !== to ? 'location_code' : 'to_location_code',
        });
    }
    return { records: rows.map(storedRecord) };
  };
};
