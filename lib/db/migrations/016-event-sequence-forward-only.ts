import type { Migration } from '../migration.ts';

/**
 * The outbox's counter, `cargo.event_sequence`, only moves forward. The service user UPDATEs it
 * (each write takes its events' numbers from it, lib/events/write.ts), and an UPDATE could as well
 * set it back: every event written after would take a number already used and the write would
 * fail on the outbox's primary key, until an operator set it right. A trigger refuses a smaller
 * value with 23514, as a CHECK would (a CHECK cannot see the value before).
 */
export const eventSequenceForwardOnly: Migration = {
  id: 16,
  name: 'event-sequence-forward-only',
  statements: [
    `CREATE FUNCTION cargo.event_sequence_forward_only() RETURNS trigger
       LANGUAGE plpgsql
       SET search_path = pg_catalog, pg_temp
     AS $fn$
     BEGIN
       IF NEW.last < OLD.last THEN
         RAISE EXCEPTION 'the event sequence only moves forward: % is below %', NEW.last, OLD.last
           USING ERRCODE = 'check_violation', TABLE = 'event_sequence', SCHEMA = 'cargo';
       END IF;
       RETURN NEW;
     END
     $fn$`,
    `CREATE TRIGGER event_sequence_forward_only BEFORE UPDATE ON cargo.event_sequence
       FOR EACH ROW EXECUTE FUNCTION cargo.event_sequence_forward_only()`,
  ],
};
