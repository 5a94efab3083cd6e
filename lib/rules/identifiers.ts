/**
 * The configured code patterns as the service describes them in its refusals: the default form
 * reads as prose, a custom pattern as itself. Reading a scan before a pattern is checked is the
 * contract's (lib/contract/scanned-codes.ts), which the handheld app shares.
 */

/**
 * The lengths of a code pattern of the default form (`^[A-Z0-9-]{4,32}$`), or undefined for any other pattern.
 *
 * @example
 * ```ts
 * codePatternRange('^[A-Z0-9-]{4,32}$'); // { min: 4, max: 32 }
 * ```
 */
export const codePatternRange = (source: string): { min: number; max: number } | undefined => {
  const match = /^\^\[A-Z0-9-\]\{(\d+),(\d+)\}\$$/.exec(source);
  return match ? { min: Number(match[1]), max: Number(match[2]) } : undefined;
};

/**
 * Describes a configured pattern (or its source) for messages: the default reads as prose, a custom one as itself.
 *
 * @example
 * ```ts
 * describePattern(/^[A-Z0-9-]{4,32}$/); // "4-32 characters of A-Z, 0-9 and '-'"
 * ```
 */
export const describePattern = (pattern: RegExp | string): string => {
  const source = typeof pattern === 'string' ? pattern : pattern.source;
  const range = codePatternRange(source);
  return range ? `${range.min}-${range.max} characters of A-Z, 0-9 and '-'` : `a value matching ${source}`;
};
