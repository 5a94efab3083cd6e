import type { Migration } from '../migration.ts';

/**
 * The outbox of the SPEC's "Events": every write statement inserts its events into `cargo.event`
 * beside the change it makes, so an event exists exactly when its effect committed.
 *
 * Sequence numbers come from the one row of `cargo.event_sequence`, which a writing statement
 * UPDATEs after its other writes and holds locked until it commits: the next writer takes its
 * numbers only once the previous one is visible, so sequences become visible in order and a
 * reader that has seen n never later finds an unseen event below n. A statement that writes no
 * event (a refusal, a keyed replay, a PATCH that changes nothing) does not touch the row.
 *
 * `cargo.event_relay` holds the relay's publication mark: events above `last_published` are still
 * to be pushed to EventBridge.
 */
export const eventOutbox: Migration = {
  id: 7,
  name: 'event-outbox',
  statements: [
    `CREATE TABLE cargo.event_sequence (
       singleton boolean PRIMARY KEY DEFAULT true CHECK (singleton),
       last      bigint  NOT NULL CHECK (last >= 0)
     )`,
    'INSERT INTO cargo.event_sequence (singleton, last) VALUES (true, 0)',
    `CREATE TABLE cargo.event (
       sequence        bigint      PRIMARY KEY CHECK (sequence > 0),
       id              uuid        NOT NULL UNIQUE DEFAULT gen_random_uuid(),
       type            text        NOT NULL CHECK (type IN ('cargo.located', 'location.voided', 'box.saved', 'box.edited', 'box.undone',
                                                            'zongpai.registered', 'zongpai.closed', 'zongpai.reopened')),
       occurred_at     timestamptz NOT NULL DEFAULT now(),
       actor           text        NOT NULL,
       idempotency_key text        NULL,
       data            jsonb       NOT NULL
     )`,
    'CREATE INDEX event_occurred_at ON cargo.event (occurred_at)',
    `CREATE TABLE cargo.event_relay (
       singleton      boolean PRIMARY KEY DEFAULT true CHECK (singleton),
       last_published bigint  NOT NULL CHECK (last_published >= 0)
     )`,
    'INSERT INTO cargo.event_relay (singleton, last_published) VALUES (true, 0)',
  ],
};
