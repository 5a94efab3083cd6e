import { json, type Db } from '../lib/db/types.ts';

/**
 * The demo warehouse's location register: the shelves of two zones, a staging lane, two docks
 * and a blocked quarantine place. Listed in the README, whose walkthrough scans at them.
 */
export const DEMO_LOCATIONS: readonly (readonly [
  code: string,
  kind: string,
  zone: string | null,
  description: string,
  blocked: boolean,
])[] = [
  ['A-01-01', 'SHELF', 'A', 'Aisle A, rack 01, level 1', false],
  ['A-01-02', 'SHELF', 'A', 'Aisle A, rack 01, level 2', false],
  ['A-01-03', 'SHELF', 'A', 'Aisle A, rack 01, level 3', false],
  ['B-01-01', 'SHELF', 'B', 'Aisle B, rack 01, level 1', false],
  ['B-01-02', 'SHELF', 'B', 'Aisle B, rack 01, level 2', false],
  ['STAGE-2', 'STAGING', 'DISPATCH', 'Staging lane 2', false],
  ['DOCK-3', 'DOCK', 'DISPATCH', 'Dock door 3', false],
  ['DOCK-4', 'DOCK', 'DISPATCH', 'Dock door 4', false],
  ['QC-HOLD', 'QUARANTINE', null, 'Quality hold: damaged goods', true],
];

/**
 * Registers the demo locations that are not registered yet (one already there is left as it
 * is), as the demo ERP plan is loaded: by `npm start`, not through the API, so without events.
 */
export const ensureDemoLocations = async (db: Db): Promise<void> => {
  await db.query(
    `INSERT INTO cargo.location (location_code, kind, zone, description, blocked, registered_by, changed_by)
     SELECT l.location_code, l.kind, l.zone, l.description, l.blocked, 'demo', 'demo'
     FROM json_to_recordset(:locations) AS l(location_code text, kind text, zone text, description text, blocked boolean)
     ON CONFLICT (location_code) DO NOTHING`,
    {
      locations: json(
        DEMO_LOCATIONS.map(([location_code, kind, zone, description, blocked]) => ({
          location_code,
          kind,
          zone,
          description,
          blocked,
        })),
      ),
    },
  );
};
