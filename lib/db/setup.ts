import { migrate } from './migrate.ts';
import { migrations } from './migrations/index.ts';
import { ensureBoxContentView, type BoxContentOutcome } from './read-contract.ts';
import { grantErpView, grantUsers } from './grants.ts';
import type { RoleNames } from './roles.ts';
import type { Db } from './types.ts';

/** What one run of {@link setUpSchema} did. */
export interface SchemaSetUp {
  /** The migrations applied by this run. */
  readonly applied: number[];
  /** Whether the owner, service and reader users may read the ERP view (false: missing, or not the master's to grant). */
  readonly erpViewGranted: boolean;
  /** The read contract's view over the ERP view. */
  readonly boxContent: BoxContentOutcome;
}

/**
 * Once the database users exist (lib/db/roles.ts): migrates as the owner, lets the owner, service
 * and reader users read the ERP view, (re)creates the read contract's view over it as the owner,
 * then grants the service, reader and maintenance users what each may do on everything in
 * `cargo`, that view included. What the migration function does on every deployment and the
 * local runtime at every start.
 *
 * @example
 * ```ts
 * await ensureRoles(master, roles);
 * const done = await setUpSchema({ master, owner, names: ROLE_NAMES, erpBoxView: 'erp.v_box_info' });
 * done.applied; // e.g. [11]
 * ```
 */
export const setUpSchema = async (options: {
  readonly master: Db;
  readonly owner: Db;
  readonly names: RoleNames;
  readonly erpBoxView: string;
}): Promise<SchemaSetUp> => {
  const { master, owner, names, erpBoxView } = options;
  const applied = await migrate(owner, migrations);
  const erpViewGranted = await grantErpView(master, names, erpBoxView);
  const boxContent = erpViewGranted ? await ensureBoxContentView(owner, erpBoxView) : 'view missing';
  await grantUsers(owner, names);
  return { applied, erpViewGranted, boxContent };
};
