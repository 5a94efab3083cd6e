import type { Migration } from '../migration.ts';

/**
 * Location records: one row per scan. `occurred_at` is the device's scan time capped at the
 * server's clock, so a backlog uploaded late still sorts where the scans really happened.
 * History is read newest first per cargo through `location_record_cargo_idx` (scanned backward).
 */
export const locations: Migration = {
  id: 1,
  name: 'locations',
  statements: [
    `CREATE TABLE cargo.location_record (
       id            bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
       cargo_no      text        NOT NULL,
       location_code text        NOT NULL,
       off_shelf     boolean     NOT NULL DEFAULT false,
       scanned_at    timestamptz,
       recorded_at   timestamptz NOT NULL DEFAULT now(),
       occurred_at   timestamptz NOT NULL,
       recorded_by   text        NOT NULL,
       device_id     text
     )`,
    `CREATE INDEX location_record_cargo_idx ON cargo.location_record (cargo_no, occurred_at, id)`,
  ],
};
