import type { DatabaseFunction } from '../db/sql-functions/function.ts';
import { functionBody } from '../db/write.ts';
import { checkedRecordStatement, RECORD_SCANS_COLUMNS } from './locations.ts';

/**
 * `cargo.record_scans(scans, recorded_by, registered_only, erp_codes, proceed, idempotency_key)`:
 * a request's scans checked against the location register and stored, or its problems answered
 * ({@link checkedRecordStatement}), as the route's statement calls it (`recordStatement` in
 * lib/location/locations.ts). Its one query is the statement the route would otherwise send:
 * PL/pgSQL keeps its plan for the connection once made, so a scan is planned once per connection
 * instead of on every request. `erp_codes` are the scans' location codes the ERP plan holds,
 * read by the caller. `proceed` and `idempotency_key` are the caller's idempotency gate and key:
 * with the gate closed it writes nothing. It stores the records and the current locations; the
 * caller writes their events, last (see `recordStatement`). It runs with its caller's privileges (the service user's)
 * and names every table by its schema.
 */
export const recordScansFunction: DatabaseFunction = {
  name: 'cargo.record_scans',
  after: 24,
  sql: `CREATE OR REPLACE FUNCTION cargo.record_scans(p_scans json, p_recorded_by text, p_registered_only boolean,
                                               p_erp_codes text[], p_proceed boolean, p_idempotency_key text)
  RETURNS TABLE (${RECORD_SCANS_COLUMNS})
  LANGUAGE plpgsql VOLATILE
  SET search_path = pg_catalog, pg_temp
AS $fn$
-- The answer's columns share their names with the tables': the query's own names are meant.
#variable_conflict use_column
BEGIN
  RETURN QUERY ${functionBody(
    checkedRecordStatement({
      scans: 'p_scans',
      recordedBy: 'p_recorded_by',
      registeredOnly: 'p_registered_only',
      erpCodes: 'p_erp_codes',
    }),
    { proceed: 'p_proceed', idempotencyKey: 'p_idempotency_key' },
  )};
END
$fn$`,
};
