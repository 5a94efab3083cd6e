import * as z from 'zod/mini';
import { refusedBecause } from '../rules/refusal.ts';
import type { Config } from '../config.ts';
import type { Fields } from '../rules/fields.ts';
import { versionField } from '../rules/version.ts';
import { BOX_ITEMS_RECORD_BYTES } from './limits.ts';

/** What `items` come to as the box's JSON record, in bytes, as the statement measures a plan's. */
const itemsRecordBytes = (list: readonly { item_code: string; quantity: number }[]): number =>
  list.reduce((sum, entry) => sum + new TextEncoder().encode(JSON.stringify(entry)).length + ITEM_RECORD_SPACING, 0);
/** The spaces and separator PostgreSQL's JSON text puts around an item's fields. */
const ITEM_RECORD_SPACING = 6;

/**
 * Request schemas of the boxing routes, built from the configured identifier rules: for each
 * route, its path, query and body schemas as the route validates them.
 *
 * @example
 * ```ts
 * const s = makeBoxSchemas(config, fields);
 * s.save.body.parse({ box_no: 'box-1001', zongpai_no: 'plt-1', items: [{ item_code: 'SKU-1', quantity: 2 }] });
 * ```
 */
export const makeBoxSchemas = (config: Config, fields: Fields) => {
  const item = z.strictObject({ item_code: fields.itemCode, quantity: fields.quantity });

  /**
   * 1..BOX_ITEMS_MAX items, each item code once (compared after trimming), coming to at most
   * {@link BOX_ITEMS_RECORD_BYTES} as the box's record (long codes of many-byte characters).
   */
  const items = z.array(item).check(
    z.minLength(1),
    z.maxLength(config.boxItemsMax),
    z.refine(
      (list) => itemsRecordBytes(list) <= BOX_ITEMS_RECORD_BYTES,
      refusedBecause({ reason: 'items_record_too_large', limit: BOX_ITEMS_RECORD_BYTES }, 'VALIDATION_ERROR'),
    ),
    z.superRefine((list, ctx) => {
      const seen = new Set<string>();
      list.forEach((entry, index) => {
        if (seen.has(entry.item_code)) {
          ctx.addIssue({
            code: 'custom',
            path: [index, 'item_code'],
            params: { error_code: 'DUPLICATE_BOX_ITEM' },
            input: entry.item_code,
          });
        }
        seen.add(entry.item_code);
      });
    }),
  );

  const version = versionField();
  const boxPath = z.object({ box_no: fields.boxNo });

  const editBody = z
    .strictObject({ version: z.optional(version), zongpai_no: z.optional(fields.zongpaiNo), items: z.optional(items) })
    .check(
      z.refine(
        (body) => body.zongpai_no !== undefined || body.items !== undefined,
        refusedBecause({ reason: 'edit_names_nothing' }, 'VALIDATION_ERROR'),
      ),
    );

  return {
    item,
    info: { query: z.object({ box_no: fields.boxNo }) },
    save: { body: z.strictObject({ box_no: fields.boxNo, zongpai_no: fields.zongpaiNo, items }) },
    simple: { body: z.strictObject({ box_no: fields.boxNo, zongpai_no: fields.zongpaiNo }) },
    edit: { path: boxPath, body: editBody },
    undo: { path: boxPath, body: z.optional(z.strictObject({ version: z.optional(version) })) },
    history: { path: boxPath },
  };
};

export type BoxSchemas = ReturnType<typeof makeBoxSchemas>;
export type BoxItem = z.output<BoxSchemas['item']>;
