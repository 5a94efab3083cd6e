import type { Db } from '../db/types.ts';
import { compileWrite, type Idempotency } from '../db/write.ts';
import { editBox, editBoxStatement, undoBox, undoBoxStatement, type EditBoxInput } from './change.ts';
import type { BoxSaveResponse } from './outcome.ts';
import { boxHistorySql, boxInfoSql, readBoxHistory, readBoxInfo } from './read.ts';
import { saveBox, saveBoxStatement, type SaveBoxInput } from './save.ts';

export type { BoxSaveResponse } from './outcome.ts';
export type { BoxEvent, BoxInfoResponse } from './read.ts';
export { makeBoxSchemas } from './schemas.ts';
export { expectedVersion } from './version.ts';

export interface BoxingOptions {
  readonly db: Db;
  /** The ERP view of box plans (`ERP_BOX_VIEW`). */
  readonly erpView: string;
  /** Whether a box may only hold its planned items, each at most its planned quantity. */
  readonly enforcePlan: boolean;
}

/**
 * The boxing capability. Each method is one SQL statement, so one Data API round trip.
 *
 * @example
 * ```ts
 * const boxing = makeBoxing({ db, erpView: 'erp.v_box_info', enforcePlan: true });
 * await boxing.save({ box_no: 'BOX-1001', zongpai_no: 'PLT-0001', items: [{ item_code: 'SKU-TEA-250', quantity: 24 }] }, 'olga');
 * await boxing.edit({ box_no: 'BOX-1001', version: 1, zongpai_no: 'PLT-0002' }, 'sam');
 * ```
 */
export const makeBoxing = ({ db, erpView, enforcePlan }: BoxingOptions) => {
  const sql = {
    info: boxInfoSql(erpView),
    history: boxHistorySql(erpView),
    save: compileWrite(saveBoxStatement(erpView)),
    edit: compileWrite(editBoxStatement(erpView)),
    undo: compileWrite(undoBoxStatement(erpView)),
  };
  return {
    info: (boxNo: string) => readBoxInfo(db, sql.info, boxNo),
    history: (boxNo: string) => readBoxHistory(db, sql.history, boxNo),
    /** Saves the items boxed, or (no `items`) exactly the ERP plan: the simplified mode. */
    save: (input: SaveBoxInput, actor: string, idempotency?: Idempotency): Promise<BoxSaveResponse> => saveBox(db, sql.save, input, actor, enforcePlan, idempotency),
    edit: (input: EditBoxInput, actor: string, idempotency?: Idempotency): Promise<BoxSaveResponse> => editBox(db, sql.edit, input, actor, enforcePlan, idempotency),
    undo: (input: { box_no: string; version: number }, actor: string, idempotency?: Idempotency): Promise<BoxSaveResponse> => undoBox(db, sql.undo, input, actor, idempotency),
  };
};

export type Boxing = ReturnType<typeof makeBoxing>;
