/**
 * A configured `schema.name` (the ERP view's, validated as identifiers at cold start) as a quoted
 * SQL identifier: a name is the one part of a statement that cannot travel as a parameter, so it
 * is quoted, each part apart, with any double quote in it doubled.
 *
 * @example
 * ```ts
 * quoteIdentifier('erp.box_plan'); // '"erp"."box_plan"'
 * ```
 */
export const quoteIdentifier = (qualified: string): string =>
  qualified
    .split('.')
    .map((part) => `"${part.replaceAll('"', '""')}"`)
    .join('.');
