import { json } from '../db/types.ts';
import { PROCEED, type WriteStatement } from '../db/write.ts';
import * as z from 'zod/mini';
import {
  boxOutcome,
  BoxOutcomeRow,
  boxWriteStatement,
  runBoxWrite,
  type BoxSaveResponse,
  type BoxWriteCall,
} from './outcome.ts';
import type { BoxItem } from './schemas.ts';
import type { PlanWarning } from './read.ts';
import { BOX_ITEMS_RECORD_BYTES } from './limits.ts';
import {
  boxOutcomeSelect,
  firstProblemCte,
  mixingCheck,
  ignoredLinesSql,
  itemsRecordBytesSql,
  planChecks,
  requestedItemsSql,
  sqlInteger,
  zongpaiIsABox,
  zongpaiLock,
  type Mixing,
  type PlanRules,
} from './sql.ts';

/**
 * Saves a box and appends it to its zongpai in ONE statement: it reads the ERP plan, locks the
 * zongpai row (FOR SHARE, or in turn with other writes onto it when `mixing` is restricted: see
 * `zongpaiLock`; so a concurrent close either waits for this append or is seen by it),
 * checks every rule, and only when none is broken writes the box, its items and the SAVE event.
 *
 * The upsert is the concurrency guard: a box row that exists and is BOXED is left alone, so of
 * racing saves exactly one writes and the others see no row come back (BOX_ALREADY_BOXED).
 * An undone box (NOT_BOXED) is saved again at its next version.
 *
 * The simplified mode saves the usable plan lines (see {@link planCte}); a plan with none, with
 * an item planned beyond `QUANTITY_MAX`, with more items than one save holds (`BOX_ITEMS_MAX`),
 * or whose items come to more than one box's record carries ({@link BOX_ITEMS_RECORD_BYTES}: the
 * answer, the audit row and the event are each one Data API row) is ERP_PLAN_INVALID rather than
 * a stored box that breaks the item rules or an answer the Data API refuses.
 */
/** A save's answer row: a box write's, with the ignored plan lines for the log (JSON, or NULL for none). */
export const SaveOutcomeRow = /* @__PURE__ */ (() => z.extend(BoxOutcomeRow, { ignored_lines: z.unknown() }))();
export type SaveOutcomeRow = z.infer<typeof SaveOutcomeRow>;

export const saveBoxStatement = (
  erpView: string,
  rules: PlanRules,
  mixing: Mixing = 'any',
): WriteStatement<SaveOutcomeRow> => ({
  ...boxWriteStatement(erpView, rules, {
    action: 'SAVE',
    written: 'saved',
    ctes: `
requested AS (
  ${requestedItemsSql} WHERE NOT :from_plan
  UNION ALL
  -- A plan of more items than one save holds is refused (rank 37): none of it is compared item by item.
  SELECT p.item_code, p.planned, row_number() OVER (ORDER BY p.item_code) FROM plan p
  WHERE :from_plan AND (SELECT count(*) FROM plan) <= ${sqlInteger(rules.boxItemsMax)}
),
zp AS (
  SELECT z.zongpai_no, z.status FROM cargo.zongpai z WHERE z.zongpai_no = :zongpai_no ${zongpaiLock(mixing)}
),
${firstProblemCte([
  { rank: 10, code: 'BOX_NOT_FOUND', value: ':box_no', where: 'NOT EXISTS (SELECT 1 FROM plan_lines)' },
  { rank: 35, code: 'ERP_PLAN_INVALID', value: ':box_no', where: ':from_plan AND NOT EXISTS (SELECT 1 FROM plan)' },
  {
    rank: 36,
    code: 'ERP_PLAN_INVALID',
    value: 'p.item_code',
    planned: 'p.planned',
    from: 'plan p',
    where: `:from_plan AND p.planned > ${sqlInteger(rules.quantityMax)}`,
  },
  {
    rank: 37,
    code: 'ERP_PLAN_INVALID',
    value: ':box_no',
    reason: 'too_many_items',
    planned: '(SELECT count(*) FROM plan)',
    where: `:from_plan AND (SELECT count(*) FROM plan) > ${sqlInteger(rules.boxItemsMax)}`,
  },
  {
    rank: 38,
    code: 'ERP_PLAN_INVALID',
    value: ':box_no',
    reason: 'items_too_large',
    planned: itemsRecordBytesSql('plan', 'planned'),
    where: `:from_plan AND ${itemsRecordBytesSql('plan', 'planned')} > ${sqlInteger(BOX_ITEMS_RECORD_BYTES)}`,
  },
  zongpaiIsABox(erpView, 'NOT EXISTS (SELECT 1 FROM zp)'),
  { rank: 20, code: 'ZONGPAI_NOT_FOUND', value: ':zongpai_no', where: 'NOT EXISTS (SELECT 1 FROM zp)' },
  { rank: 30, code: 'ZONGPAI_CLOSED', value: 'zp.zongpai_no', from: 'zp', where: "zp.status <> 'OPEN'" },
  ...mixingCheck(erpView, mixing, 'true'),
  ...planChecks,
])},
saved AS (
  INSERT INTO cargo.box AS b (box_no, status, zongpai_no, zongpai_since, version, total_quantity, saved_at, saved_by)
  SELECT :box_no, 'BOXED', :zongpai_no, now(), 1, (SELECT COALESCE(sum(r.quantity), 0) FROM requested r), now(), :actor
  WHERE NOT EXISTS (SELECT 1 FROM problem) AND ${PROCEED}
  ON CONFLICT (box_no) DO UPDATE
    SET status = 'BOXED', zongpai_no = EXCLUDED.zongpai_no, zongpai_since = EXCLUDED.zongpai_since, version = b.version + 1,
        total_quantity = EXCLUDED.total_quantity, saved_at = EXCLUDED.saved_at, saved_by = EXCLUDED.saved_by
    WHERE b.status = 'NOT_BOXED'
  RETURNING b.*
),
items_written AS (
  INSERT INTO cargo.box_item (box_no, item_code, quantity)
  SELECT s.box_no, r.item_code, r.quantity FROM saved s CROSS JOIN requested r
)`,
  }),
  select: `SELECT o.*, ${ignoredLinesSql} AS ignored_lines FROM (${boxOutcomeSelect('saved')}) AS o`,
  row: SaveOutcomeRow,
});

export interface SaveBoxInput {
  readonly box_no: string;
  readonly zongpai_no: string;
  /** The items boxed; omitted in the simplified mode, where the box holds exactly its ERP plan. */
  readonly items?: readonly BoxItem[];
}

/** Runs {@link saveBoxStatement}: a saved box, or the SPEC error that stopped it. */
export const saveBox = async (
  call: BoxWriteCall<SaveOutcomeRow>,
  input: SaveBoxInput,
  enforcePlan: boolean,
  warn: PlanWarning,
): Promise<BoxSaveResponse> => {
  const row = await runBoxWrite(call, {
    box_no: input.box_no,
    zongpai_no: input.zongpai_no,
    items: json(input.items ?? []),
    from_plan: input.items === undefined,
    enforce_plan: enforcePlan,
  });
  const ignored = row?.ignored_lines;
  if (ignored != null) warn('ERP plan lines ignored', { box_no: input.box_no, lines: ignored });
  return boxOutcome(row, 'BOX_ALREADY_BOXED', input.box_no, undefined, input.zongpai_no);
};
