import * as z from 'zod/mini';

/**
 * The largest version a box or a location record can have: versions are PostgreSQL `integer`
 * columns, so a larger one can never be current, and it is refused (400) before it reaches SQL.
 */
export const VERSION_MAX = 2_147_483_647;

/** The `version` a change is based on: a whole number 1..{@link VERSION_MAX}. */
export const versionField = () => z.int().check(z.minimum(1), z.maximum(VERSION_MAX));
