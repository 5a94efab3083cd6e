import { quoteIdentifier } from '../db/identifier.ts';

/**
 * One probe of `table` for a row where `condition` holds, as a subquery the planner cannot turn
 * into reading the table whole (an EXISTS may become a hash of every row, once per statement):
 * with LIMIT 1 it stays a lookup by the index of the compared column, per row asked about.
 */
export const probeSql = (table: string, condition: string) =>
  `((SELECT 1 FROM ${table} WHERE ${condition} LIMIT 1) IS NOT NULL)`;

/**
 * What a location code `code` (SQL) names as cargo: the SSCC when it is the GS1-128 reading of a
 * pallet's or carton's label, `00` and 18 digits (a cargo number in that form is read as the SSCC,
 * so no cargo is numbered so), else the code itself. The length is compared first, so most codes
 * never reach the pattern.
 */
export const cargoOfPlaceSql = (code: string) =>
  `CASE WHEN char_length(${code}) = 20 AND ${code} ~ '^00[0-9]{18}$' THEN substr(${code}, 3) ELSE ${code} END`;

/**
 * The location codes a scan of the cargo number `code` (SQL) could read where a location was
 * expected, as an SQL array: the number itself and, for an SSCC, its GS1-128 reading (`00` and the
 * 18 digits; {@link cargoOfPlaceSql} the other way), NULL in its place for any other number.
 */
export const placesOfCargoSql = (code: string) =>
  `ARRAY[${code}, CASE WHEN ${code} ~ '^[0-9]{18}$' THEN '00' || ${code} END]`;

/**
 * Whether the location code `code` is cargo ({@link isCargoSql} of what it names as cargo,
 * {@link cargoOfPlaceSql}): a scan of a label where a location was expected.
 */
export const isCargoPlaceSql = (erpView: string, code: string) => isCargoSql(erpView, cargoOfPlaceSql(code));

/**
 * Whether the code `code` (an SQL expression of default collation) is cargo: a registered zongpai,
 * a saved box (primary key probes) or a box of the ERP plan (the view's own index, in its collation).
 */
export const isCargoSql = (erpView: string, code: string) =>
  `(${probeSql('cargo.zongpai z', `z.zongpai_no = ${code}`)}
    OR ${probeSql('cargo.box b', `b.box_no = ${code}`)}
    OR ${probeSql(`${quoteIdentifier(erpView)} v`, `v.box_no = ${code} COLLATE "default"`)})`;

/**
 * The codes of `codes` (an SQL expression, a text array of default collation) that are cargo, as
 * rows of `code`: one index scan each of the zongpais and the saved boxes (primary keys) and the
 * ERP plan (the view's own index), over the array. An index scan over an array sorts it and
 * descends once per distinct code, so codes given many times (a backlog's shelves) cost one probe.
 */
export const cargoCodesSql = (erpView: string, codes: string) =>
  `SELECT z.zongpai_no AS code FROM cargo.zongpai z WHERE z.zongpai_no = ANY (${codes})
  UNION ALL SELECT b.box_no FROM cargo.box b WHERE b.box_no = ANY (${codes})
  UNION ALL SELECT v.box_no FROM ${quoteIdentifier(erpView)} v WHERE v.box_no = ANY (${codes})`;
