import type { DatabaseFunction } from './function.ts';

/**
 * A function of the history's maintenance: called with the months kept and the months ahead, it
 * answers a JSON summary. It runs as the owner (SECURITY DEFINER: the service's users may not create
 * or drop tables), with only the catalog on its search path, and waits at most 10 s for a lock a
 * request holds (its DDL's locks are short).
 *
 * @example
 * ```ts
 * historyMaintenance({ name: 'cargo.keep_location_history', after: 13, body: 'BEGIN ... END' });
 * ```
 */
export const historyMaintenance = ({
  name,
  after,
  body,
}: {
  readonly name: string;
  readonly after: number;
  /** The PL/pgSQL block, DECLARE to END. */
  readonly body: string;
}): DatabaseFunction => ({
  name,
  after,
  sql: `CREATE OR REPLACE FUNCTION ${name}(p_months_kept integer, p_months_ahead integer) RETURNS json
  LANGUAGE plpgsql VOLATILE SECURITY DEFINER
  SET search_path = pg_catalog, pg_temp
  SET lock_timeout = '10s'
AS $fn$
${body}
$fn$`,
});
