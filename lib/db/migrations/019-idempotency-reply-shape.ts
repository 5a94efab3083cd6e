import type { Migration } from '../migration.ts';

/**
 * The shape of a stored answer (lib/db/write.ts, `ReplyShape`): the version of the answer
 * columns the statement that stored it had. A key stored before this column holds shape 1, the
 * first of every statement (NULL, read as 1), so adding it rewrites no row.
 */
export const idempotencyReplyShape: Migration = {
  id: 19,
  name: 'idempotency-reply-shape',
  statements: [`ALTER TABLE cargo.idempotency_key ADD COLUMN reply_shape smallint NULL CHECK (reply_shape > 0)`],
};
