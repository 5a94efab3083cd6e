import type { Db } from '../db/types.ts';
import { compileWrite, type Idempotency } from '../db/write.ts';
import { editBox, editBoxStatement, undoBox, undoBoxStatement, type EditBoxInput } from './change.ts';
import type { BoxSaveResponse } from './outcome.ts';
import { boxHistorySql, boxInfoSql, readBoxHistory, readBoxInfo } from './read.ts';
import { saveBox, saveBoxStatement, type SaveBoxInput } from './save.ts';
import type { PlanRules } from './sql.ts';
import type { PlanWarning } from './read.ts';

export type { PlanRules } from './sql.ts';
export { expectedVersion } from './version.ts';

export interface BoxingOptions {
  readonly db: Db;
  /** The ERP view of box plans (`ERP_BOX_VIEW`). */
  readonly erpView: string;
  /** Whether a box may only hold its planned items, each at most its planned quantity. */
  readonly enforcePlan: boolean;
  /** The item rules an ERP plan line must meet to be used; other lines are ignored. */
  readonly planRules: PlanRules;
  /** Where ignored ERP plan lines are reported (the function's logger). */
  readonly warn: PlanWarning;
}

/**
 * Each boxing operation on its own, so that a function's bundle carries only its own statement.
 * Every operation is one SQL statement: one Data API round trip.
 *
 * @example
 * ```ts
 * const save = makeBoxSave({ db, erpView: 'erp.v_box_info', enforcePlan: true, planRules: { itemCodeMaxLength: 64, quantityMax: 99_999 }, warn: console.warn });
 * await save({ box_no: 'BOX-1001', zongpai_no: 'PLT-0001', items: [{ item_code: 'SKU-TEA-250', quantity: 24 }] }, 'olga');
 * ```
 */
export const makeBoxInfo = ({ db, erpView, planRules, warn }: BoxingOptions) => {
  const sql = boxInfoSql(erpView, planRules);
  return (boxNo: string) => readBoxInfo(db, sql, boxNo, warn);
};

export const makeBoxHistory = ({ db, erpView, planRules }: BoxingOptions) => {
  const sql = boxHistorySql(erpView, planRules);
  return (boxNo: string) => readBoxHistory(db, sql, boxNo);
};

/** Saves the items boxed, or (no `items`) exactly the ERP plan: the simplified mode. */
export const makeBoxSave = ({ db, erpView, enforcePlan, planRules, warn }: BoxingOptions) => {
  const write = compileWrite(saveBoxStatement(erpView, planRules));
  return (input: SaveBoxInput, actor: string, idempotency?: Idempotency): Promise<BoxSaveResponse> => saveBox(db, write, input, actor, enforcePlan, idempotency, warn);
};

export const makeBoxEdit = ({ db, erpView, enforcePlan, planRules }: BoxingOptions) => {
  const write = compileWrite(editBoxStatement(erpView, planRules));
  return (input: EditBoxInput, actor: string, idempotency?: Idempotency): Promise<BoxSaveResponse> => editBox(db, write, input, actor, enforcePlan, idempotency);
};

export const makeBoxUndo = ({ db, erpView, planRules }: BoxingOptions) => {
  const write = compileWrite(undoBoxStatement(erpView, planRules));
  return (input: { box_no: string; version: number }, actor: string, idempotency?: Idempotency): Promise<BoxSaveResponse> => undoBox(db, write, input, actor, idempotency);
};
