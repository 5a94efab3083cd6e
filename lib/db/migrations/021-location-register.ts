import type { Migration } from '../migration.ts';

/** The JSON of a registered location `l`, as every answer and event of the register shows it. */
export const LOCATION_JSON = `json_build_object('location_code', l.location_code, 'kind', l.kind, 'off_shelf', l.off_shelf, 'zone', l.zone,
  'description', l.description, 'blocked', l.blocked, 'version', l.version,
  'registered_at', to_char(l.registered_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
  'changed_at', to_char(l.changed_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))`;

/**
 * The location register, `cargo.location`: the warehouse's own locations, each with its kind
 * (`off_shelf` derived from it: false for a shelf only), an optional zone and description,
 * whether it is blocked, and a version (1 when registered, one more with each change). Its
 * codes compare byte by byte (`COLLATE "C"`), as every code column of the service. A listing by
 * zone reads the zone's index in code order. `cargo.registered_location(code)` reads one location
 * with a fresh snapshot (VOLATILE PL/pgSQL): a change that found the row locked by another answers
 * the location as that other left it, which the statement's own snapshot, taken before it
 * waited, would not show. The outbox admits the register's events.
 */
export const locationRegister: Migration = {
  id: 21,
  name: 'location-register',
  statements: [
    `CREATE TABLE cargo.location (
       location_code text COLLATE "C" PRIMARY KEY,
       kind          text        NOT NULL CHECK (kind IN ('SHELF', 'STAGING', 'DOCK', 'FLOOR', 'QUARANTINE')),
       off_shelf     boolean     GENERATED ALWAYS AS (kind <> 'SHELF') STORED,
       zone          text COLLATE "C" NULL,
       description   text        NULL,
       blocked       boolean     NOT NULL DEFAULT false,
       version       integer     NOT NULL DEFAULT 1 CHECK (version >= 1),
       registered_at timestamptz NOT NULL DEFAULT now(),
       registered_by text        NOT NULL,
       changed_at    timestamptz NOT NULL DEFAULT now(),
       changed_by    text        NOT NULL
     )`,
    'CREATE INDEX location_zone ON cargo.location (zone, location_code)',
    `CREATE FUNCTION cargo.registered_location(p_location_code text) RETURNS json
       LANGUAGE plpgsql VOLATILE
     AS $fn$
     BEGIN
       RETURN (SELECT ${LOCATION_JSON} FROM cargo.location l WHERE l.location_code = p_location_code);
     END
     $fn$`,
    'ALTER TABLE cargo.event DROP CONSTRAINT event_type_check',
    // Every event type the outbox holds, the register's two included.
    `ALTER TABLE cargo.event ADD CONSTRAINT event_type_check CHECK (type IN (
       'cargo.located', 'location.voided', 'box.saved', 'box.edited', 'box.undone',
       'zongpai.registered', 'zongpai.closed', 'zongpai.reopened', 'location.registered', 'location.changed'))`,
  ],
};
