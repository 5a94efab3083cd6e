import type { SqlSession } from './backend.ts';

/** Which Data API `Field` member carries a value of the type. */
export type ValueKind = 'long' | 'double' | 'decimal' | 'bool' | 'blob' | 'timestamptz' | 'string' | 'array';

/**
 * What the Data API does with a PostgreSQL type: which Field member carries it (`kind`) and
 * what its column metadata says (`jdbcType`, the java.sql.Types code PgJDBC reports).
 */
export interface PgTypeInfo {
  readonly oid: number;
  /** pg_type.typname, e.g. `int8`, `timestamptz`, `jsonb`, or an enum's own name. */
  readonly name: string;
  readonly kind: ValueKind;
  readonly jdbcType: number;
  /** PgJDBC's precision and scale when the column has no type modifier. */
  readonly precision: number;
  readonly scale: number;
  /** The element type of an array type. */
  readonly element?: PgTypeInfo;
  /** False for a type the Data API refuses to return (UnsupportedResultException). */
  readonly supported: boolean;
}

/**
 * The Aurora PostgreSQL types the Data API's data type mapping table lists (RDS Data API,
 * "Data type mapping"): BOOL, BYTEA, CIDR, DATE, DECIMAL/NUMERIC, ENUM, FLOAT4/REAL, FLOAT8,
 * INET, INT2, INT4, INT8, JSON, JSONB, NAME, TEXT, CHAR(n), VARCHAR, TIME, TIMESTAMP,
 * TIMESTAMPTZ, UUID, and one-dimensional arrays of them (NAME[] as stringValues). Everything
 * else (`void`, `regtype`, `"char"`, `oid`, `interval`, `money`, ...) is refused with
 * UnsupportedResultException, as AWS refuses `void`, `regtype` and `"char"`.
 */
const SUPPORTED = new Set([
  'bool',
  'bytea',
  'int2',
  'int4',
  'int8',
  'text',
  'json',
  'cidr',
  'float4',
  'float8',
  'inet',
  'bpchar',
  'varchar',
  'date',
  'time',
  'timestamp',
  'timestamptz',
  'numeric',
  'uuid',
  'jsonb',
  'name',
]);

/**
 * Types the table lists only as array elements: BIT[] is a BOOLEAN_ARRAY (booleanValues), one
 * bit per element; a BIT scalar is not listed, and is refused.
 */
const SUPPORTED_AS_ELEMENT = new Set(['bit']);

const MAX = 2_147_483_647;
const JDBC = {
  BIT: -7,
  BIGINT: -5,
  BINARY: -2,
  CHAR: 1,
  NUMERIC: 2,
  INTEGER: 4,
  SMALLINT: 5,
  REAL: 7,
  DOUBLE: 8,
  VARCHAR: 12,
  DATE: 91,
  TIME: 92,
  TIMESTAMP: 93,
  OTHER: 1111,
  ARRAY: 2003,
  STRUCT: 2002,
  SQLXML: 2009,
} as const;

// [oid, name, kind, jdbcType, precision, scale, arrayOid]
const SCALARS: readonly (readonly [number, string, ValueKind, number, number, number, number])[] = [
  [16, 'bool', 'bool', JDBC.BIT, 1, 0, 1000],
  [17, 'bytea', 'blob', JDBC.BINARY, MAX, 0, 1001],
  [18, 'char', 'string', JDBC.CHAR, 1, 0, 1002],
  [19, 'name', 'string', JDBC.VARCHAR, 63, 0, 1003],
  [20, 'int8', 'long', JDBC.BIGINT, 19, 0, 1016],
  [21, 'int2', 'long', JDBC.SMALLINT, 5, 0, 1005],
  [23, 'int4', 'long', JDBC.INTEGER, 10, 0, 1007],
  [25, 'text', 'string', JDBC.VARCHAR, MAX, 0, 1009],
  [26, 'oid', 'long', JDBC.BIGINT, 10, 0, 1028],
  [114, 'json', 'string', JDBC.OTHER, MAX, 0, 199],
  [142, 'xml', 'string', JDBC.SQLXML, MAX, 0, 143],
  [650, 'cidr', 'string', JDBC.OTHER, MAX, 0, 651],
  [700, 'float4', 'double', JDBC.REAL, 8, 8, 1021],
  [701, 'float8', 'double', JDBC.DOUBLE, 17, 17, 1022],
  [705, 'unknown', 'string', JDBC.VARCHAR, MAX, 0, 0],
  [790, 'money', 'string', JDBC.DOUBLE, 0, 2, 791],
  [869, 'inet', 'string', JDBC.OTHER, MAX, 0, 1041],
  [1042, 'bpchar', 'string', JDBC.CHAR, MAX, 0, 1014],
  [1043, 'varchar', 'string', JDBC.VARCHAR, MAX, 0, 1015],
  [1082, 'date', 'string', JDBC.DATE, 13, 0, 1182],
  [1083, 'time', 'string', JDBC.TIME, 15, 6, 1183],
  [1114, 'timestamp', 'string', JDBC.TIMESTAMP, 29, 6, 1115],
  [1184, 'timestamptz', 'timestamptz', JDBC.TIMESTAMP, 35, 6, 1185],
  [1186, 'interval', 'string', JDBC.OTHER, 49, 6, 1187],
  [1266, 'timetz', 'string', JDBC.TIME, 21, 6, 1270],
  [1560, 'bit', 'bool', JDBC.BIT, 1, 0, 1561],
  [1700, 'numeric', 'decimal', JDBC.NUMERIC, 0, 0, 1231],
  [2278, 'void', 'string', JDBC.OTHER, MAX, 0, 0],
  [2950, 'uuid', 'string', JDBC.OTHER, MAX, 0, 2951],
  [3802, 'jsonb', 'string', JDBC.OTHER, MAX, 0, 3807],
];

const arrayOf = (element: PgTypeInfo, oid: number, name = `_${element.name}`): PgTypeInfo => ({
  oid,
  name,
  kind: 'array',
  jdbcType: JDBC.ARRAY,
  precision: MAX,
  scale: 0,
  element,
  supported: (element.supported || SUPPORTED_AS_ELEMENT.has(element.name)) && element.kind !== 'array',
});

const BUILTINS: ReadonlyMap<number, PgTypeInfo> = new Map(
  SCALARS.flatMap(([oid, name, kind, jdbcType, precision, scale, arrayOid]) => {
    const scalar: PgTypeInfo = { oid, name, kind, jdbcType, precision, scale, supported: SUPPORTED.has(name) };
    return arrayOid === 0
      ? [[oid, scalar] as const]
      : [[oid, scalar] as const, [arrayOid, arrayOf(scalar, arrayOid)] as const];
  }),
);

/** A type outside the table (an enum, a composite, a pseudo-type): sent as a string if at all. */
const otherType = (oid: number, name: string, jdbcType: number, supported: boolean): PgTypeInfo => ({
  oid,
  name,
  kind: 'string',
  jdbcType,
  precision: MAX,
  scale: 0,
  supported,
});

const UNKNOWN_TYPE = (oid: number): PgTypeInfo => otherType(oid, 'unknown', JDBC.OTHER, false);

interface CatalogRow {
  readonly oid: number;
  readonly name: string;
  readonly typtype: string;
  readonly element: number;
  readonly base: number;
  readonly category: string;
}

const CATALOG_SQL = `SELECT oid::int8, typname::text, typtype::text, typelem::int8, typbasetype::int8, typcategory::text
  FROM pg_catalog.pg_type WHERE oid = ANY($1::oid[])`;

/**
 * Resolves result column types: built-ins from a table, anything else (enums, domains, their
 * arrays) from pg_type through the session that produced the result, since a type created in
 * an open transaction is only visible there. Lookups are cached by OID.
 *
 * @example
 * ```ts
 * const types = new TypeCatalog();
 * const [info] = await types.resolve(session, [1184]); // { name: 'timestamptz', kind: 'timestamptz', jdbcType: 93, ... }
 * ```
 */
export class TypeCatalog {
  readonly #cache = new Map<number, PgTypeInfo>(BUILTINS);

  async resolve(session: SqlSession, oids: readonly number[]): Promise<PgTypeInfo[]> {
    const rows = new Map<number, CatalogRow>();
    let missing = this.#missing(oids, rows);
    for (let round = 0; missing.length > 0 && round < 4; round += 1) {
      const result = await session.query(CATALOG_SQL, [`{${missing.join(',')}}`]);
      for (const [oid, name, typtype, element, base, category] of result.rows) {
        rows.set(Number(oid), {
          oid: Number(oid),
          name: name ?? '',
          typtype: typtype ?? '',
          element: Number(element),
          base: Number(base),
          category: category ?? '',
        });
      }
      const found = [...rows.values()].flatMap((row) => [row.element, row.base].filter((oid) => oid !== 0));
      missing = this.#missing(found, rows);
    }
    return oids.map((oid) => this.#build(oid, rows));
  }

  #missing(oids: readonly number[], rows: ReadonlyMap<number, CatalogRow>): number[] {
    return [...new Set(oids)].filter((oid) => oid !== 0 && !this.#cache.has(oid) && !rows.has(oid));
  }

  #build(oid: number, rows: ReadonlyMap<number, CatalogRow>, depth = 0): PgTypeInfo {
    const cached = this.#cache.get(oid);
    if (cached !== undefined) return cached;
    const row = rows.get(oid);
    if (row === undefined || depth > 4) return UNKNOWN_TYPE(oid);
    let info: PgTypeInfo;
    if (row.typtype === 'd') info = { ...this.#build(row.base, rows, depth + 1), oid, name: row.name };
    else if (row.category === 'A' && row.element !== 0)
      info = arrayOf(this.#build(row.element, rows, depth + 1), oid, row.name);
    // Enums are documented; composites, pseudo-types and the reg* types are not.
    else info = otherType(oid, row.name, row.typtype === 'c' ? JDBC.STRUCT : JDBC.OTHER, row.typtype === 'e');
    this.#cache.set(oid, info);
    return info;
  }
}
