import type { Config } from '../config.ts';
import type { Db } from '../db/types.ts';
import { compileWrite, type Idempotency } from '../db/write.ts';
import { editBox, editBoxStatement, type EditBoxInput } from './edit.ts';
import type { BoxAtVersion, BoxSaveResponse } from './outcome.ts';
import { boxHistorySql, boxInfoSql, readBoxHistory, readBoxInfo } from './read.ts';
import { saveBox, saveBoxStatement, type SaveBoxInput } from './save.ts';
import { undoBox, undoBoxStatement } from './undo.ts';
import { planRulesOf } from './sql.ts';
import type { PlanWarning } from './read.ts';

export type { PlanRules } from './sql.ts';

/**
 * What every capability is built from (location, box and zongpai alike): the Data API adapter and
 * the configuration, plus the logger where the operation reports something (ignored ERP plan lines).
 */
export interface Capability {
  readonly db: Db;
  readonly config: Config;
  readonly logger?: { warn(message: string, details: Parameters<PlanWarning>[1]): void };
}

const warnOf =
  (logger: Capability['logger']): PlanWarning =>
  (message, details) =>
    logger?.warn(message, details);

/**
 * Each boxing operation on its own, so that a function's bundle carries only its own statement.
 * Every operation is one SQL statement: one Data API round trip.
 *
 * @example
 * ```ts
 * const save = makeBoxSave({ db, config: loadConfig({}), logger });
 * await save({ box_no: 'BOX-1001', zongpai_no: 'PLT-0001', items: [{ item_code: 'SKU-TEA-250', quantity: 24 }] }, 'olga');
 * ```
 */
export const makeBoxInfo = ({ db, config, logger }: Capability) => {
  const sql = boxInfoSql(config.erpBoxView, planRulesOf(config));
  const warn = warnOf(logger);
  return (boxNo: string) => readBoxInfo(db, sql, boxNo, warn);
};

export const makeBoxHistory = ({ db, config }: Capability) => {
  const sql = boxHistorySql(config.erpBoxView, planRulesOf(config));
  return (boxNo: string) => readBoxHistory(db, sql, boxNo);
};

/** Saves the items boxed, or (no `items`) exactly the ERP plan: the simplified mode. */
export const makeBoxSave = ({ db, config, logger }: Capability) => {
  const write = compileWrite(saveBoxStatement(config.erpBoxView, planRulesOf(config), config.zongpaiMixing));
  const warn = warnOf(logger);
  return (input: SaveBoxInput, actor: string, idempotency?: Idempotency): Promise<BoxSaveResponse> =>
    saveBox({ db, write, actor, idempotency }, input, config.enforceErpPlan, warn);
};

export const makeBoxEdit = ({ db, config }: Capability) => {
  const write = compileWrite(editBoxStatement(config.erpBoxView, planRulesOf(config), config.zongpaiMixing));
  return (input: EditBoxInput, actor: string, idempotency?: Idempotency): Promise<BoxSaveResponse> =>
    editBox({ db, write, actor, idempotency }, input, config.enforceErpPlan);
};

export const makeBoxUndo = ({ db, config }: Capability) => {
  const write = compileWrite(undoBoxStatement(config.erpBoxView, planRulesOf(config)));
  return (input: BoxAtVersion, actor: string, idempotency?: Idempotency): Promise<BoxSaveResponse> =>
    undoBox({ db, write, actor, idempotency }, input);
};
