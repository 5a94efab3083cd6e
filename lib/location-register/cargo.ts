import { quoteIdentifier } from '../box/sql.ts';

/**
 * Whether the code `code` (an SQL expression of default collation) is cargo: a registered zongpai,
 * a saved box (primary key probes) or a box of the ERP plan (the view's own index, in its collation).
 */
export const isCargoSql = (erpView: string, code: string) =>
  `(EXISTS (SELECT 1 FROM cargo.zongpai z WHERE z.zongpai_no = ${code})
    OR EXISTS (SELECT 1 FROM cargo.box b WHERE b.box_no = ${code})
    OR EXISTS (SELECT 1 FROM ${quoteIdentifier(erpView)} v WHERE v.box_no = ${code} COLLATE "default"))`;
