import type { SqlParameter } from '@aws-sdk/client-rds-data';
import type { SqlParams, SqlValue, TypedValue } from './types.ts';

const isTyped = (value: SqlValue): value is TypedValue => typeof value === 'object' && value !== null;

/**
 * Converts named parameters to Data API `SqlParameter`s.
 * Whole numbers become `longValue` (PostgreSQL int8), others `doubleValue`; typed values carry
 * their `typeHint`. An array or a non-finite number is a programming error and throws here,
 * before a round trip the Data API would reject anyway.
 *
 * @example
 * ```ts
 * toSqlParameters({ n: 5, doc: json({ a: 1 }) });
 * // [{ name: 'n', value: { longValue: 5 } }, { name: 'doc', value: { stringValue: '{"a":1}' }, typeHint: 'JSON' }]
 * ```
 */
export const toSqlParameters = (params: SqlParams): SqlParameter[] =>
  Object.entries(params).map(([name, value]): SqlParameter => {
    if (value === null) return { name, value: { isNull: true } };
    if (Array.isArray(value))
      throw new TypeError(`Parameter ${name}: arrays are not supported by the Data API; pass json(list)`);
    if (isTyped(value)) return { name, value: { stringValue: value.value }, typeHint: value.hint };
    switch (typeof value) {
      case 'string':
        return { name, value: { stringValue: value } };
      case 'boolean':
        return { name, value: { booleanValue: value } };
      case 'number':
        if (!Number.isFinite(value)) throw new TypeError(`Parameter ${name}: ${value} is not a finite number`);
        return { name, value: Number.isSafeInteger(value) ? { longValue: value } : { doubleValue: value } };
      default:
        throw new TypeError(`Parameter ${name}: unsupported type ${typeof value}`);
    }
  });
