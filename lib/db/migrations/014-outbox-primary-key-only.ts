import type { Migration } from '../migration.ts';

/**
 * The outbox keeps one index, its primary key on `sequence`, which the feed, the relay and the
 * pruning read by. Each event a write adds went into two more: a unique index on `id`, at a random
 * place since ids are random, and one on `occurred_at`. No statement reads an event by its id, and
 * the id's uniqueness is that of 122 random bits from PostgreSQL's strong random source (two alike
 * among a year of a large warehouse's 150 M events: about 2 in 10^21); the pruning reads the
 * oldest events by their sequence (lib/events/outbox.ts). A backlog of 500 scans writes 1 000
 * index entries fewer, and a week of events needs about 130 MB less of the cache
 * (docs/PERFORMANCE.md §4).
 */
export const outboxPrimaryKeyOnly: Migration = {
  id: 14,
  name: 'outbox-primary-key-only',
  statements: ['ALTER TABLE cargo.event DROP CONSTRAINT event_id_key', 'DROP INDEX cargo.event_occurred_at'],
};
