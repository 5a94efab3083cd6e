import type { Migration } from '../migration.ts';

/**
 * The relay's lease, on the row of its publication mark (`cargo.event_relay`): the run that holds
 * it (`lease_holder`, a random id each run takes) until `lease_until`. Runs of the relay may
 * overlap (a slow run and the next minute's, a retried invocation), and only the holder reads the
 * outbox to publish and moves the mark, so events go out one run at a time, in sequence order.
 * A run takes the lease in the statement that reads its first page, when it is free, its own or
 * expired, renews it with every page and mark, and releases it with its last statement; a run
 * that died leaves it to expire (lib/events/outbox.ts). Both set, or both null.
 */
export const eventRelayLease: Migration = {
  id: 18,
  name: 'event-relay-lease',
  statements: [
    `ALTER TABLE cargo.event_relay
       ADD COLUMN lease_holder uuid NULL,
       ADD COLUMN lease_until timestamptz NULL,
       ADD CONSTRAINT event_relay_lease_whole CHECK ((lease_holder IS NULL) = (lease_until IS NULL))`,
  ],
};
