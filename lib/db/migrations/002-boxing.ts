import type { Migration } from '../migration.ts';

/**
 * Boxing: zongpai (master tags), boxes with their items, and the append-only audit trail.
 *
 * Correctness under concurrency rests on these constraints, not on reads before writes:
 * one row per box (a box is on at most one zongpai), one event per box version (a stale
 * version can never be written twice), and the status/zongpai check.
 */
export const boxing: Migration = {
  id: 2,
  name: 'boxing',
  statements: [
    `CREATE TABLE cargo.zongpai (
       zongpai_no  text        PRIMARY KEY,
       status      text        NOT NULL DEFAULT 'OPEN' CONSTRAINT zongpai_status_check CHECK (status IN ('OPEN', 'CLOSED')),
       created_at  timestamptz NOT NULL DEFAULT now(),
       created_by  text        NOT NULL,
       closed_at   timestamptz,
       closed_by   text
     )`,
    `CREATE TABLE cargo.box (
       box_no         text        PRIMARY KEY,
       status         text        NOT NULL CONSTRAINT box_status_check CHECK (status IN ('BOXED', 'NOT_BOXED')),
       zongpai_no     text        REFERENCES cargo.zongpai (zongpai_no),
       zongpai_since  timestamptz,
       version        integer     NOT NULL CONSTRAINT box_version_check CHECK (version > 0),
       total_quantity integer     NOT NULL DEFAULT 0,
       saved_at       timestamptz NOT NULL,
       saved_by       text        NOT NULL,
       CONSTRAINT box_boxed_on_zongpai CHECK ((status = 'BOXED') = (zongpai_no IS NOT NULL))
     )`,
    `CREATE INDEX box_zongpai_idx ON cargo.box (zongpai_no, box_no) WHERE zongpai_no IS NOT NULL`,
    `CREATE TABLE cargo.box_item (
       box_no    text    NOT NULL REFERENCES cargo.box (box_no) ON DELETE CASCADE,
       item_code text    NOT NULL,
       quantity  integer NOT NULL CONSTRAINT box_item_quantity_check CHECK (quantity > 0),
       PRIMARY KEY (box_no, item_code)
     )`,
    `CREATE TABLE cargo.box_event (
       box_no     text        NOT NULL,
       version    integer     NOT NULL,
       action     text        NOT NULL CONSTRAINT box_event_action_check CHECK (action IN ('SAVE', 'EDIT', 'UNDO')),
       actor      text        NOT NULL,
       at         timestamptz NOT NULL DEFAULT now(),
       zongpai_no text,
       items      jsonb       NOT NULL,
       CONSTRAINT box_event_pkey PRIMARY KEY (box_no, version)
     )`,
  ],
};
