import { AppError } from '../errors/app-error.ts';
import { DatabaseError } from './errors.ts';
import type { Db } from './types.ts';

/**
 * SQL states of a view that is missing or unreadable: undefined table (42P01), insufficient
 * privilege (42501), undefined column (42703), a column of another type (42804, 42883, 42846).
 */
const UNREADABLE = new Set(['42P01', '42501', '42703', '42804', '42883', '42846']);

/**
 * The class of SQL states a view's own expressions raise while it is read: data exceptions (22:
 * a division by zero, a cast of a value that is no number). The service's own statements cast
 * only what its validation passed, so on a statement that reads the ERP view these come from the view.
 */
const DATA_EXCEPTION = '22';

/**
 * The classes of SQL states an ERP's own functions in the view raise: PL/pgSQL's RAISE and ASSERT
 * (P0), a routine that fails (2F, 38, 39), and limits a runaway one meets, such as a recursion
 * deeper than the stack (54). The service's functions never raise these on a statement that reads the view
 * (its one trigger, on the event counter, refuses with 23514).
 */
const ROUTINE_FAILURES = ['P0', '2F', '38', '39', '54'];

/** True for a database error that says a view is missing or unreadable. */
export const isUnreadableView = (error: unknown): boolean => {
  if (!(error instanceof DatabaseError) || error.sqlState === undefined) return false;
  const { sqlState } = error;
  return (
    UNREADABLE.has(sqlState) ||
    sqlState.startsWith(DATA_EXCEPTION) ||
    ROUTINE_FAILURES.some((failure) => sqlState.startsWith(failure))
  );
};

/**
 * Wraps the database adapter so that a statement reading the ERP view, failing because the view
 * is missing or unreadable, answers 503 ERP_VIEW_UNAVAILABLE (an operations problem, alarmed on)
 * instead of 500. A statement that does not name the view is left alone: a missing table of the
 * service's own schema is a failed migration, not the ERP's.
 *
 * @example
 * ```ts
 * const db = guardErpView(createDataApiDb(config), config.erpBoxView);
 * ```
 */
export const guardErpView = (db: Db, view: string): Db => {
  // The statements name it as configured or quoted part by part ("erp"."v_box_info").
  const names = [
    view,
    view
      .split('.')
      .map((part) => `"${part}"`)
      .join('.'),
  ];
  const readsView = (sql: string): boolean => names.some((name) => sql.includes(name));
  const guarded: Db = {
    query: async (sql, params) => {
      try {
        return await db.query(sql, params);
      } catch (error) {
        if (isUnreadableView(error) && readsView(sql)) {
          throw new AppError('ERP_VIEW_UNAVAILABLE', {}, [], { cause: error });
        }
        throw error;
      }
    },
    transaction: (work) => db.transaction((tx) => work(guardErpView(tx, view))),
  };
  return guarded;
};
