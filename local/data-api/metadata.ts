import type { ResultField, SqlSession } from './backend.ts';
import type { PgTypeInfo } from './pg-types.ts';

/** A Data API `ColumnMetadata`, with the values PgJDBC (behind the real service) reports. */
export interface WireColumnMetadata {
  name: string;
  label: string;
  type: number;
  typeName: string;
  schemaName: string;
  tableName: string;
  isAutoIncrement: boolean;
  isSigned: boolean;
  isCurrency: boolean;
  isCaseSensitive: boolean;
  /** java.sql.ResultSetMetaData: 0 no nulls, 1 nullable (also for expressions). */
  nullable: number;
  precision: number;
  scale: number;
  arrayBaseColumnType: number;
}

interface ColumnFacts {
  readonly tableName: string;
  readonly notNull: boolean;
  readonly autoIncrement: boolean;
}

const COLUMNS_SQL = `SELECT a.attrelid::int8, a.attnum::int8, c.relname::text, a.attnotnull,
    (a.attidentity <> '' OR coalesce(pg_catalog.pg_get_expr(d.adbin, d.adrelid), '') LIKE 'nextval(%') AS auto
  FROM pg_catalog.pg_attribute a
  JOIN pg_catalog.pg_class c ON c.oid = a.attrelid
  LEFT JOIN pg_catalog.pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum
  WHERE a.attrelid = ANY($1::oid[]) AND a.attnum > 0`;

/** Facts about the table columns behind a result, keyed `tableID:columnID`. */
const columnFacts = async (session: SqlSession, fields: readonly ResultField[]): Promise<Map<string, ColumnFacts>> => {
  const tables = [...new Set(fields.map((field) => field.tableID).filter((id) => id !== 0))];
  const facts = new Map<string, ColumnFacts>();
  if (tables.length === 0) return facts;
  const result = await session.query(COLUMNS_SQL, [`{${tables.join(',')}}`]);
  for (const [table, column, tableName, notNull, auto] of result.rows) {
    facts.set(`${table}:${column}`, {
      tableName: tableName ?? '',
      notNull: notNull === 't',
      autoIncrement: auto === 't',
    });
  }
  return facts;
};

const NOT_CASE_SENSITIVE = new Set(['long', 'double', 'decimal', 'bool', 'timestamptz']);
const TEMPORAL_JDBC = new Set([91, 92, 93]);

/** Precision and scale from a type modifier (varchar(n), bpchar(n), numeric(p,s)), else the type's defaults. */
const precisionAndScale = (field: ResultField, type: PgTypeInfo): [number, number] => {
  const mod = field.dataTypeModifier;
  if (mod < 4) return [type.precision, type.scale];
  if (type.name === 'varchar' || type.name === 'bpchar') return [mod - 4, 0];
  if (type.name === 'numeric') return [((mod - 4) >> 16) & 0xffff, (mod - 4) & 0xffff];
  return [type.precision, type.scale];
};

/**
 * Column metadata for a result, looking up nullability and table names in the catalog through
 * the session that ran the statement.
 *
 * @example
 * ```ts
 * const [id] = await columnMetadata(session, result.fields, types);
 * // { name: 'id', label: 'id', type: -5, typeName: 'int8', tableName: 'box', nullable: 0, ... }
 * ```
 */
export const columnMetadata = async (
  session: SqlSession,
  fields: readonly ResultField[],
  types: readonly PgTypeInfo[],
): Promise<WireColumnMetadata[]> => {
  const facts = await columnFacts(session, fields);
  return fields.map((field, index) => {
    const type = types[index] as PgTypeInfo;
    const fact = facts.get(`${field.tableID}:${field.columnID}`);
    const [precision, scale] = precisionAndScale(field, type);
    return {
      name: field.name,
      label: field.name,
      type: type.jdbcType,
      typeName: type.name,
      schemaName: '',
      tableName: fact?.tableName ?? '',
      isAutoIncrement: fact?.autoIncrement ?? false,
      isSigned: ['long', 'double', 'decimal'].includes(type.kind),
      isCurrency: type.name === 'money',
      isCaseSensitive: !NOT_CASE_SENSITIVE.has(type.kind) && !TEMPORAL_JDBC.has(type.jdbcType),
      nullable: fact?.notNull === true ? 0 : 1,
      precision,
      scale,
      arrayBaseColumnType: type.element?.jdbcType ?? 0,
    };
  });
};
