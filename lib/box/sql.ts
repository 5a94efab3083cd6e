/**
 * SQL fragments shared by the boxing statements. The ERP view's name comes from configuration
 * (validated as `schema.name` identifiers at cold start) and is quoted by `quoteIdentifier`
 * (lib/db/identifier.ts); every value from a request travels as a named parameter.
 */

import type { Config } from '../config.ts';
import { quoteIdentifier } from '../db/identifier.ts';
import { answersInvalidInput, errorCodeSql, isoTime, type ReplyShape } from '../db/write.ts';
import type { ErrorCode } from '../errors/catalogue.ts';
import { outbox } from '../events/write.ts';

/** The item rules a plan line must meet to be boxed (`ITEM_CODE_MAX_LENGTH`, `QUANTITY_MAX`). */
export interface PlanRules {
  readonly itemCodeMaxLength: number;
  readonly quantityMax: number;
  /** The items one save holds: a plan of more is refused by the simplified mode. */
  readonly boxItemsMax: number;
}

/** The settings a statement over the ERP plan is built from: the view and the item rules. */
export type PlanSettings = Pick<Config, 'erpBoxView' | 'itemCodeMaxLength' | 'quantityMax' | 'boxItemsMax'>;

/** The item rules of the configuration. */
export const planRulesOf = (settings: PlanSettings): PlanRules => ({
  itemCodeMaxLength: settings.itemCodeMaxLength,
  quantityMax: settings.quantityMax,
  boxItemsMax: settings.boxItemsMax,
});

/** How much of an ignored plan line's item code the log keeps: an ERP code may be any length. */
const LOGGED_CODE_CHARACTERS = 100;
/** How many ignored plan lines a write's log entry lists (it counts them all). */
const LOGGED_LINES = 20;

/** Control, format and private-use characters: what the request rules call not printable. */
const NOT_PRINTABLE = String.raw`[\x01-\x1f\x7f-\x9f\u00ad\u0600-\u0605\u061c\u06dd\u070f\u0890\u0891\u08e2\u180e\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u206f\ufeff\ufff9-\ufffb\ue000-\uf8ff\U000110BD\U000110CD\U00013430-\U0001343F\U0001BCA0-\U0001BCA3\U0001D173-\U0001D17A\U000E0001\U000E0020-\U000E007F\U000F0000-\U0010FFFF]`;
/** What a scanner's trimming would have removed: such a code can never be scanned as it is. */
const PADDED = String.raw`^[ \t\r\n]|[ \t\r\n]$`;

/** A configured bound placed in SQL text: only ever a positive safe integer. */
export const sqlInteger = (n: number): string => {
  if (!Number.isSafeInteger(n) || n < 1) throw new RangeError(`not a positive integer: ${n}`);
  return String(n);
};

/** The largest planned quantity of one line: the SPEC's view column is a PostgreSQL integer. */
const PLANNED_QUANTITY_MAX = 2_147_483_647;

/**
 * The longest ERP text (order number, customer, item name, unit) the service passes on. Answers
 * and events name these, and the Data API refuses a result row over 64 KB: a line with a longer
 * one is ignored (and logged) like any unusable line, and such a text never reaches an answer
 * (see {@link erpText}). 1 000 characters is far beyond any real name and far below the row.
 */
export const ERP_TEXT_MAX_CHARACTERS = 1000;

/**
 * How codes compare and sort: byte by byte, whatever the database's default collation (Aurora's
 * is a language's). The service's code columns are declared so (migration 015); a code read from
 * the ERP view or a request says it where it is read. A lookup in the ERP view by one of the
 * service's codes says `COLLATE "default"` instead, so that the view's own index serves it.
 */
export const CODE_COLLATION = 'COLLATE "C"';
const ERP_TEXTS = ['order_no', 'customer_name', 'item_name', 'unit'] as const;

/**
 * A text column of the ERP view's line `v`, NULL where it is longer than
 * {@link ERP_TEXT_MAX_CHARACTERS}: a box's order and customer then come from its lines whose own
 * are usable.
 */
export const erpText = (column: (typeof ERP_TEXTS)[number]) =>
  `CASE WHEN char_length(v.${column}) <= ${String(ERP_TEXT_MAX_CHARACTERS)} THEN v.${column} END AS ${column}`;

/**
 * Why a line of the ERP view is ignored, or NULL for a line the service uses. The ERP is outside
 * our control: a line without a valid item code or with no quantity to box (NULL, 0, negative)
 * plans nothing a scanner could box, so it neither shows nor can be saved. A view whose column is
 * not an integer may hold a fraction (never rounded into a plan), NaN or a number beyond an
 * integer: such a line is ignored too (the `numeric` casts accept every numeric column type),
 * and so is one with a text longer than {@link ERP_TEXT_MAX_CHARACTERS}.
 */
const ignoredBecause = (rules: PlanRules) => `CASE
    WHEN v.item_code IS NULL THEN 'item_code is NULL'
    WHEN v.item_code = '' OR char_length(v.item_code) > ${sqlInteger(rules.itemCodeMaxLength)} OR v.item_code ~ '${NOT_PRINTABLE}' OR v.item_code ~ '${PADDED}'
      THEN 'item_code is not 1-${sqlInteger(rules.itemCodeMaxLength)} printable characters without surrounding whitespace'
${ERP_TEXTS.map(
  (c) =>
    `    WHEN char_length(v.${c}) > ${String(ERP_TEXT_MAX_CHARACTERS)} THEN '${c} is longer than ${String(ERP_TEXT_MAX_CHARACTERS)} characters'`,
).join('\n')}
    WHEN v.planned_quantity IS NULL THEN 'planned_quantity is NULL'
    WHEN v.planned_quantity::numeric % 1 <> 0 THEN 'planned_quantity is not a whole number'
    WHEN v.planned_quantity < 1 THEN 'planned_quantity is below 1'
    WHEN v.planned_quantity::numeric > ${PLANNED_QUANTITY_MAX} THEN 'planned_quantity is above ${PLANNED_QUANTITY_MAX}'
  END`;

/**
 * What every reading of the ERP view's line `v` takes after its box and order: the customer,
 * the item and its planned quantity, with why the line is ignored ({@link ignoredBecause}). The
 * item code is compared and listed byte by byte ({@link CODE_COLLATION}), as the service's own.
 */
export const planLineColumns = (rules: PlanRules) =>
  `${erpText('customer_name')}, v.item_code ${CODE_COLLATION} AS item_code, ${erpText('item_name')}, ${erpText('unit')}, v.planned_quantity,
         ${ignoredBecause(rules)} AS ignored_because`;

/**
 * The ERP view's lines of `:box_no` (`plan_lines`, each with `ignored_because`), and the plan
 * made of the usable ones (`plan`), one row per item code: an item planned on two lines is
 * summed, as a bigint, since the ERP's integers may sum beyond 2^31.
 */
export const planCte = (erpView: string, rules: PlanRules) => `
plan_lines AS (
  SELECT ${erpText('order_no')}, ${planLineColumns(rules)}
  FROM ${quoteIdentifier(erpView)} v
  WHERE v.box_no = :box_no
),
plan AS (
  SELECT l.item_code, sum(l.planned_quantity)::bigint AS planned
  FROM plan_lines l
  WHERE l.ignored_because IS NULL
  GROUP BY l.item_code
)`;

/**
 * The usable lines of `plan_lines` folded to one row per item, of each box when `perBox`: the
 * planned quantity summed as a bigint (an item planned on two lines), and a name and a unit the
 * lines give. Box info, the packing list and an order's progress read the plan so.
 */
export const foldedPlanSql = (perBox: boolean): string => {
  const keys = perBox ? 'l.box_no, l.item_code' : 'l.item_code';
  return `SELECT ${keys}, sum(l.planned_quantity)::bigint AS planned, min(l.item_name) AS item_name, min(l.unit) AS unit
  FROM plan_lines l WHERE l.ignored_because IS NULL GROUP BY ${keys}`;
};

/**
 * An item `i` of the plan beside what is boxed of it, as JSON: the contract's `PlannedItem`, one
 * of box info's items and of the items of a box on an order's progress.
 */
export const plannedItemJson = `json_build_object('item_code', i.item_code, 'item_name', i.item_name, 'unit', i.unit,
                           'planned_quantity', i.planned_quantity, 'boxed_quantity', i.boxed_quantity)`;

/** An ignored line `l` of the plan, as JSON for the log. */
const ignoredLineJson = `json_build_object('item_code', left(l.item_code, ${LOGGED_CODE_CHARACTERS}), 'planned_quantity', l.planned_quantity, 'reason', l.ignored_because)`;

/**
 * The first {@link LOGGED_LINES} ignored lines of the plan and how many there are, as JSON for
 * the log (NULL when there is none): the outcome row that carries it stays far below the Data
 * API's 64 KB, whatever the ERP holds.
 */
export const ignoredLinesSql = `(SELECT json_build_object('count', count(*), 'first', json_agg(l.line) FILTER (WHERE l.n <= ${LOGGED_LINES}))
   FROM (SELECT ${ignoredLineJson} AS line, row_number() OVER (ORDER BY l.item_code) AS n
         FROM plan_lines l WHERE l.ignored_because IS NOT NULL) AS l
   HAVING count(*) > 0)`;

/** `:items` (a JSON list) in request order, the codes compared and listed byte by byte. */
export const requestedItemsSql = `
  SELECT i.item_code ${CODE_COLLATION} AS item_code, i.quantity, i.ord
  FROM ROWS FROM (json_to_recordset(:items) AS (item_code text, quantity integer)) WITH ORDINALITY AS i (item_code, quantity, ord)`;

/** The reasons a box write's checks answer with (the catalogue renders each). */
export const CHECK_REASONS = ['not_boxed', 'too_many_items', 'items_too_large', 'zongpai_is_a_box'] as const;

export type CheckReason = (typeof CHECK_REASONS)[number];

/**
 * One rule a box write checks before it writes: when `where` holds (over `from`, if given), the
 * statement answers `code`. Every other column is named for what the message says:
 * `value` the box, zongpai or item concerned, `reason` the reason or the message variant, `planned`
 * the planned quantity a request goes beyond, `version` the version the request was based on.
 */
export interface Check {
  readonly rank: number;
  readonly code: ErrorCode;
  readonly value: string;
  readonly reason?: CheckReason;
  readonly planned?: string;
  readonly version?: string;
  /** What the request collides with, besides `value`: the order or customer already on a zongpai. */
  readonly other?: string;
  readonly from?: string;
  readonly where: string;
}

const checkSql = (c: Check): string =>
  `SELECT ${String(c.rank)} AS rank, ${errorCodeSql(c.code)} AS error_code, ${c.value}::text, ${c.reason === undefined ? 'NULL' : `'${c.reason}'`}::text, ` +
  `${c.planned ?? 'NULL'}::bigint, ${c.version ?? 'NULL'}::integer, ${c.other ?? 'NULL'}::text${c.from === undefined ? '' : ` FROM ${c.from}`}
   WHERE ${c.where}`;

/**
 * A zongpai number that is not registered but names a box of the ERP plan: a box label scanned
 * where the zongpai's was meant. INVALID_ZONGPAI says so, where ZONGPAI_NOT_FOUND would send the
 * operator to register it (which registration refuses). `unregistered` is the SQL condition that
 * the named zongpai is not registered.
 */
export const zongpaiIsABox = (erpView: string, unregistered: string): Check => ({
  rank: 19,
  code: 'INVALID_ZONGPAI',
  value: ':zongpai_no',
  reason: 'zongpai_is_a_box',
  where: `${unregistered} AND EXISTS (SELECT 1 FROM ${quoteIdentifier(erpView)} v WHERE v.box_no = :zongpai_no)`,
});

/** Which boxes may share a zongpai (`ZONGPAI_MIXING`). */
export type Mixing = Config['zongpaiMixing'];

/**
 * How a box write locks the zongpai rows it appends to or moves between (`zp`). Any mix: FOR
 * SHARE, so appends to one zongpai run side by side and a close waits for them. A restricted
 * mix: FOR NO KEY UPDATE, in zongpai order, so that writes onto one zongpai take turns and each
 * reads the boxes the one before it committed ({@link mixingCheck}); two moves between the same
 * zongpais in opposite directions lock them in the same order and never wait for each other.
 */
export const zongpaiLock = (mixing: Mixing): string =>
  mixing === 'any' ? 'FOR SHARE' : 'ORDER BY z.zongpai_no FOR NO KEY UPDATE';

const MIXING_COLUMN = { order: 'order_no', customer: 'customer_name' } as const;

/**
 * The mixing rule (`ZONGPAI_MIXING` `order` or `customer`) for a box joining the zongpai
 * `:zongpai_no` when `joining` holds: every box already on it must have the joining box's order
 * (customer), each box's taken from its ERP plan lines (the least one, as its events name it; a
 * text too long to pass on counts as none). The boxes on it are read by `cargo.zongpai_boxes`
 * once its row `zp` is locked ({@link zongpaiLock}), with a snapshot of their own: of two racing
 * saves of two orders onto an empty zongpai, the second sees the first's box. Answers the
 * joining box's order as `value` and the zongpai's as `other`. None for `any`.
 */
export const mixingCheck = (erpView: string, mixing: Mixing, joining: string): Check[] => {
  if (mixing === 'any') return [];
  const column = MIXING_COLUMN[mixing];
  const text = `CASE WHEN char_length(v.${column}) <= ${String(ERP_TEXT_MAX_CHARACTERS)} THEN v.${column} END`;
  return [
    {
      rank: 32,
      code: mixing === 'order' ? 'ZONGPAI_MIXES_ORDERS' : 'ZONGPAI_MIXES_CUSTOMERS',
      value: 'j.mine',
      other: 'o.theirs',
      from: `(SELECT min(l.${column}) AS mine FROM plan_lines l) AS j,
     LATERAL (
       SELECT min(${text}) AS theirs
       FROM zp CROSS JOIN LATERAL json_array_elements(cargo.zongpai_boxes(zp.zongpai_no)) AS x(box)
       JOIN ${quoteIdentifier(erpView)} v ON v.box_no = x.box->>'box_no'
       WHERE zp.zongpai_no = :zongpai_no AND x.box->>'box_no' <> :box_no
       GROUP BY x.box->>'box_no'
     ) AS o`,
      where: `${joining} AND o.theirs IS DISTINCT FROM j.mine`,
    },
  ];
};

/** Problems every change of a saved box (edit, undo) checks first: the box, its version, that it is boxed. */
export const boxStateChecks: readonly Check[] = [
  {
    rank: 10,
    code: 'BOX_NOT_FOUND',
    value: ':box_no',
    where: 'NOT EXISTS (SELECT 1 FROM plan_lines) AND NOT EXISTS (SELECT 1 FROM current)',
  },
  {
    rank: 12,
    code: 'VERSION_CONFLICT',
    value: 'c.box_no',
    version: ':version',
    from: 'current c',
    where: 'c.version <> :version',
  },
  {
    rank: 15,
    code: 'BOX_NOT_FOUND',
    value: ':box_no',
    reason: 'not_boxed',
    where: "EXISTS (SELECT 1 FROM plan_lines) AND NOT EXISTS (SELECT 1 FROM current c WHERE c.status = 'BOXED')",
  },
];

/** Plan violations, checked only when the plan is enforced. */
export const planChecks: readonly Check[] = [
  {
    rank: 40,
    code: 'ITEM_NOT_IN_PLAN',
    value: 'r.item_code',
    from: 'requested r LEFT JOIN plan p ON p.item_code = r.item_code',
    where: ':enforce_plan AND p.item_code IS NULL',
  },
  {
    rank: 50,
    code: 'QUANTITY_EXCEEDS_PLAN',
    value: 'r.item_code',
    planned: 'p.planned',
    from: 'requested r JOIN plan p ON p.item_code = r.item_code',
    where: ':enforce_plan AND r.quantity > p.planned',
  },
];

/**
 * The items of the written box, as JSON ordered by item code (as in every response); none when
 * nothing was written, so that a refused plan of thousands of lines is never answered.
 */
const itemsJsonSql = `CASE WHEN w.box_no IS NULL THEN '[]'::json ELSE
       (SELECT COALESCE(json_agg(json_build_object('item_code', r.item_code, 'quantity', r.quantity) ORDER BY r.item_code), '[]'::json) FROM requested r) END`;

/**
 * What the items of `from` (rows `r` with `item_code`, and `quantityColumn`) come to as the
 * box's JSON record, in bytes: compared with {@link BOX_ITEMS_RECORD_BYTES}.
 */
export const itemsRecordBytesSql = (from: string, quantityColumn: string) =>
  `(SELECT COALESCE(sum(octet_length(json_build_object('item_code', r.item_code, 'quantity', r.${quantityColumn})::text) + 2), 0) FROM ${from} r)`;

/** Whether the box holds every planned item at exactly its planned quantity, and nothing else. */
const completeSql = `(EXISTS (SELECT 1 FROM plan) AND NOT EXISTS (
    SELECT 1 FROM plan p FULL JOIN requested r ON r.item_code = p.item_code
    WHERE p.item_code IS NULL OR r.item_code IS NULL OR r.quantity <> p.planned))`;

/**
 * The first problem (lowest rank) decides the answer; the rank follows the order a supervisor
 * would fix things in: the box, the version, the zongpai, then the items.
 */
export const firstProblemCte = (checks: readonly Check[]) => `
problem AS (
  SELECT x.rank, x.code, x.value, x.reason, x.planned, x.version, x.other FROM (
  ${checks.map(checkSql).join('\n  UNION ALL\n  ')}
  ) AS x (rank, code, value, reason, planned, version, other)
  ORDER BY x.rank LIMIT 1
)`;

/**
 * The shape of a box write's answer (see `ReplyShape`, lib/db/write.ts): shape 2 added
 * `error_other` (the order or customer a zongpai already holds); no answer of shape 1 has one.
 */
export const BOX_REPLY: ReplyShape = { version: 2, upgrades: { 1: (row) => ({ ...row, error_other: null }) } };

/** A box write's answer that refused the request as invalid input: no key is kept for it (see WriteStatement). */
export const BOX_REFUSED_AS_INVALID = /* @__PURE__ */ answersInvalidInput('error_code');

/** The columns every box write answers with. */
export const boxOutcomeSelect = (written: string) => `
SELECT p.code AS error_code, p.value AS error_value, p.reason AS error_reason, p.planned AS error_planned, p.version AS error_version, p.other AS error_other,
       w.box_no, w.zongpai_no, w.status, w.version, w.total_quantity, ${isoTime('w.saved_at')} AS saved_at, w.saved_by,
       ${completeSql} AS complete, ${itemsJsonSql} AS items
FROM (SELECT 1) AS one
LEFT JOIN problem p ON true
LEFT JOIN ${written} w ON true`;

/**
 * The outbox event of a box write (`box.saved`, `box.edited`, `box.undone`): the box after the
 * change, with its order, zongpai, version, items (ordered by item code) and whether it is complete.
 */
export const boxOutbox = (written: string, type: 'box.saved' | 'box.edited' | 'box.undone') =>
  outbox(
    [
      {
        type,
        from: `${written} w`,
        data: `jsonb_build_object('box_no', w.box_no, 'order_no', (SELECT min(l.order_no) FROM plan_lines l), 'zongpai_no', w.zongpai_no,
        'status', w.status, 'version', w.version, 'complete', ${completeSql},
        'items', (SELECT COALESCE(jsonb_agg(jsonb_build_object('item_code', r.item_code, 'quantity', r.quantity) ORDER BY r.item_code), '[]'::jsonb) FROM requested r),
        'total_quantity', w.total_quantity)`,
      },
    ],
    ':actor',
  );

/**
 * The audit event of a box write: the state the box is left in (its zongpai and items) at its
 * new version, by the caller. An undo leaves no zongpai and no items.
 */
export const boxEventCte = (written: string, action: 'SAVE' | 'EDIT' | 'UNDO') => `
event AS (
  INSERT INTO cargo.box_event (box_no, version, action, actor, zongpai_no, items)
  SELECT w.box_no, w.version, '${action}', :actor, w.zongpai_no,
         (SELECT COALESCE(jsonb_agg(jsonb_build_object('item_code', r.item_code, 'quantity', r.quantity) ORDER BY r.item_code), '[]'::jsonb) FROM requested r)
  FROM ${written} w
)`;
