import type { Migration } from '../migration.ts';

/**
 * Idempotency keys: one row per caller and key, written in the same statement as the effect it
 * records, holding the statement's result rows for replay. Expired rows are swept by
 * `expires_at` (see lib/db/sweep.ts).
 */
export const idempotency: Migration = {
  id: 3,
  name: 'idempotency',
  statements: [
    `CREATE TABLE cargo.idempotency_key (
       caller       text        NOT NULL,
       idem_key     text        NOT NULL,
       route        text        NOT NULL,
       request_hash text        NOT NULL,
       result       json        NOT NULL,
       created_at   timestamptz NOT NULL DEFAULT now(),
       expires_at   timestamptz NOT NULL,
       CONSTRAINT idempotency_key_pkey PRIMARY KEY (caller, idem_key)
     )`,
    `CREATE INDEX idempotency_key_expiry_idx ON cargo.idempotency_key (expires_at)`,
  ],
};
