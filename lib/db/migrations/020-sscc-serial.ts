import type { Migration } from '../migration.ts';

/**
 * `cargo.sscc_serial`: the last SSCC serial reference handed out, one row per extension digit and
 * GS1 company prefix (`GS1_COMPANY_PREFIX`, `SSCC_EXTENSION_DIGIT`). A zongpai registered with
 * `sscc` moves its row on in the statement that registers it (INSERT … ON CONFLICT DO UPDATE):
 * racing registrations wait for each other on the row, a keyed retry replays its answer and
 * moves nothing, and a serial once committed is never handed out again, whatever the prefix
 * was set to in between.
 */
export const ssccSerial: Migration = {
  id: 20,
  name: 'sscc-serial',
  statements: [
    `CREATE TABLE cargo.sscc_serial (
       extension_digit text COLLATE "C" NOT NULL CONSTRAINT sscc_serial_extension_check CHECK (extension_digit ~ '^[0-9]$'),
       company_prefix  text COLLATE "C" NOT NULL CONSTRAINT sscc_serial_prefix_check CHECK (company_prefix ~ '^[0-9]{7,10}$'),
       last_serial     bigint           NOT NULL CONSTRAINT sscc_serial_last_check CHECK (last_serial >= 1),
       changed_at      timestamptz      NOT NULL DEFAULT now(),
       CONSTRAINT sscc_serial_pkey PRIMARY KEY (extension_digit, company_prefix)
     )`,
  ],
};
