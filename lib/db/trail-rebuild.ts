import type { MigrationStep } from './migration.ts';

/**
 * The steps that build the history's trail index again with another key, under its name
 * `location_record_trail_idx` once it is done (migrations 017 and 022):
 *
 * 1. the new index on the parent alone, as `building`: not valid, and not used, until every
 *    partition's index is attached;
 * 2. each partition's index, one statement (one Data API call) per partition, each attached as it
 *    is built: a year's history takes minutes to index, over the 45 s the Data API allows one
 *    statement, where a large warehouse's month takes seconds (docs/PERFORMANCE.md §4). Oldest
 *    first, the current and future months last: a build holds its partition's SHARE lock until
 *    the migrations commit, and scans are stored in the current month, so they wait for the last
 *    builds alone;
 * 3. the old index dropped, and the new one renamed.
 *
 * @example
 * ```ts
 * statements: trailIndexRebuilt('location_record_trail_w_idx', TRAIL_BY_WEEK_KEY),
 * ```
 */
export const trailIndexRebuilt = (building: `location_record_${string}`, key: string): readonly MigrationStep[] => {
  // Each partition's index is named after its table: location_record_p202612 + _trail_w_idx.
  const suffix = building.slice('location_record'.length);
  return [
    `CREATE INDEX ${building} ON ONLY cargo.location_record ${key}`,
    {
      statementsFrom: `
SELECT s.statement
FROM (
  SELECT c.relname, format('CREATE INDEX %I ON cargo.%I ${key.replaceAll("'", "''")}', c.relname || '${suffix}', c.relname) AS created,
         format('ALTER INDEX cargo.${building} ATTACH PARTITION cargo.%I', c.relname || '${suffix}') AS attached,
         c.relname = 'location_record_after' AS last
  FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
  WHERE i.inhparent = 'cargo.location_record'::regclass
) AS p
CROSS JOIN LATERAL (VALUES (1, p.created), (2, p.attached)) AS s (step, statement)
ORDER BY p.last, p.relname, s.step`,
    },
    'DROP INDEX cargo.location_record_trail_idx',
    `ALTER INDEX cargo.${building} RENAME TO location_record_trail_idx`,
  ];
};
