import { checkedName, type RoleNames } from './roles.ts';
import type { Db } from './types.ts';

/**
 * What the service user may change in `cargo`, table by table; everything else there it may only
 * read. The audit trail (`box_event`), the reopenings and the outbox (`event`) are only ever added
 * to, the outbox's counter only moves forward (migration 016's trigger), the SSCC serials (`sscc_serial`) are only counted on, never deleted, scans are marked voided
 * (those two columns only) but never deleted or rewritten (whole months leave with the history
 * maintenance, which runs as the owner), and the migrations' own ledger is the owner's alone. A
 * keyed write deletes its own key once expired before it stores its answer (lib/db/write.ts),
 * hence DELETE on `idempotency_key`. What only the scheduled tasks do is the maintenance user's
 * ({@link MAINTENANCE_PRIVILEGES}). A write that needs more fails with 42501 in the integration
 * tests, which run every function as its user.
 */
export const SERVICE_WRITES: Readonly<Record<string, string>> = {
  box: 'INSERT, UPDATE',
  box_item: 'INSERT, UPDATE, DELETE',
  box_event: 'INSERT',
  zongpai: 'INSERT, UPDATE',
  zongpai_reopening: 'INSERT',
  sscc_serial: 'INSERT, UPDATE',
  location_record: 'INSERT, UPDATE (voided_at, voided_by)',
  location_current: 'INSERT, UPDATE, DELETE',
  location_forgotten: 'INSERT, UPDATE',
  location: 'INSERT, UPDATE',
  event: 'INSERT',
  event_sequence: 'UPDATE',
  idempotency_key: 'INSERT, DELETE',
};

/**
 * Everything the maintenance user may do with the tables of `cargo`; it reads no other. The
 * hourly sweep deletes expired idempotency keys (lib/db/sweep.ts); the event relay takes and
 * releases its lease and moves its mark (both on `event_relay`'s one row), reads the outbox above
 * the mark and deletes the published events past retention (lib/events/outbox.ts).
 */
export const MAINTENANCE_PRIVILEGES: Readonly<Record<string, string>> = {
  event: 'SELECT, DELETE',
  event_relay: 'SELECT, UPDATE',
  idempotency_key: 'SELECT, DELETE',
};

/**
 * The functions of `cargo` the maintenance user may call, and nobody else but the owner: the
 * location history's maintenance (lib/location/history.ts), which runs as the owner (SECURITY
 * DEFINER) to create and drop partitions.
 */
export const MAINTENANCE_FUNCTIONS: readonly string[] = ['cargo.keep_location_history(integer, integer)'];

/**
 * As the owner, after the migrations: the service user may use the `cargo` schema, read its
 * tables, change them as {@link SERVICE_WRITES} says and use its sequences; the reader may read
 * its tables; both may call the functions that run with the caller's privileges (so they can do
 * no more for either than its own privileges allow). The maintenance user may use the schema and
 * do what {@link MAINTENANCE_PRIVILEGES} and {@link MAINTENANCE_FUNCTIONS} say, nothing more.
 * Read is also granted on what later migrations create, for the service and reader users (a new
 * table's writes are granted here by name); none of them may create, alter or drop anything.
 * Nobody else may call the schema's functions: PostgreSQL lets everyone call a new function, and
 * the maintenance ones run as their owner (SECURITY DEFINER). Privileges a deployment before this
 * one granted beyond these are taken back (until the maintenance user, the service user could
 * call the maintenance, prune the outbox and move the relay's mark).
 */
export const grantUsers = async (owner: Db, names: RoleNames): Promise<void> => {
  const { service, reader, maintenance } = names;
  const ownerName = checkedName(names.owner);
  for (const name of [service, reader, maintenance]) checkedName(name);
  const users = `${service}, ${reader}, ${maintenance}`;
  const defaults = `ALTER DEFAULT PRIVILEGES FOR ROLE ${ownerName} IN SCHEMA cargo`;
  // Table names, privileges and functions are the constants above, never input.
  const grant = (privileges: Readonly<Record<string, string>>, user: string) =>
    Object.entries(privileges).map(([table, what]) => `GRANT ${what} ON cargo.${checkedName(table)} TO ${user}`);
  await owner.transaction(async (tx) => {
    await tx.query(`GRANT USAGE ON SCHEMA cargo TO ${users}`);
    await tx.query(`REVOKE ALL ON ALL TABLES IN SCHEMA cargo FROM ${users}`);
    await tx.query(`GRANT SELECT ON ALL TABLES IN SCHEMA cargo TO ${service}, ${reader}`);
    for (const sql of [...grant(SERVICE_WRITES, service), ...grant(MAINTENANCE_PRIVILEGES, maintenance)])
      await tx.query(sql);
    await tx.query(`GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA cargo TO ${service}`);
    await tx.query(`REVOKE EXECUTE ON ALL FUNCTIONS IN SCHEMA cargo FROM PUBLIC, ${users}`);
    // Names from the catalogue, quoted by format(): the functions that do not run as their owner.
    const { rows: invoker } = await tx.query<{ sql: string }>(
      `SELECT format('GRANT EXECUTE ON FUNCTION %s TO %I, %I', p.oid::regprocedure, :service::text, :reader::text) AS sql
         FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
        WHERE n.nspname = 'cargo' AND NOT p.prosecdef`,
      { service, reader },
    );
    for (const { sql } of invoker) await tx.query(sql);
    for (const fn of MAINTENANCE_FUNCTIONS) await tx.query(`GRANT EXECUTE ON FUNCTION ${fn} TO ${maintenance}`);
    await tx.query(`ALTER DEFAULT PRIVILEGES FOR ROLE ${ownerName} REVOKE EXECUTE ON FUNCTIONS FROM PUBLIC`);
    await tx.query(`${defaults} REVOKE INSERT, UPDATE, DELETE ON TABLES FROM ${service}`);
    await tx.query(`${defaults} GRANT SELECT ON TABLES TO ${service}, ${reader}`);
    await tx.query(`${defaults} GRANT USAGE, SELECT ON SEQUENCES TO ${service}`);
  });
};

/** The users whose statements read the ERP view; the maintenance reads nothing of it. */
const erpReadersOf = (names: RoleNames): string[] => [names.owner, names.service, names.reader];

/**
 * As the master: read on the ERP view (and its schema) for the owner, service and reader users,
 * when the view exists: the owner's read-contract view reads it, the others' statements do (the
 * maintenance user's never do). `view` is the validated ERP_BOX_VIEW. Returns false when the view
 * is missing or the master may not grant on it (an ops-made view: ops grant it, see docs/ERP.md).
 */
export const grantErpView = async (master: Db, names: RoleNames, view: string): Promise<boolean> =>
  (await grantErpViewTo(master, erpReadersOf(names), view)).length > 0;

/**
 * The same for users by name (`npm run erp-view -- --demo` after creating the view): answers the
 * users granted, those of `users` that exist; none when the view is missing or the signed-in
 * user may not grant on it.
 */
export const grantErpViewTo = async (master: Db, users: readonly string[], view: string): Promise<string[]> => {
  for (const user of users) checkedName(user);
  const [schema] = view.includes('.') ? view.split('.') : ['public'];
  try {
    return await master.transaction(async (tx) => {
      const { rows } = await tx.query<{ name: string }>(
        `SELECT rolname::text AS name FROM pg_roles
          WHERE to_regclass(:view) IS NOT NULL AND rolname IN (SELECT json_array_elements_text(:users::json))
          ORDER BY rolname`,
        { view, users: JSON.stringify(users) },
      );
      const granted = rows.map((row) => row.name);
      if (granted.length === 0) return [];
      await tx.query(`GRANT USAGE ON SCHEMA ${schema as string} TO ${granted.join(', ')}`);
      await tx.query(`GRANT SELECT ON ${view} TO ${granted.join(', ')}`);
      return granted;
    });
  } catch (error) {
    if ((error as { sqlState?: string }).sqlState === '42501') return [];
    throw error;
  }
};
