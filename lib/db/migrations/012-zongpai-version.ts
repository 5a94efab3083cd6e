import type { Migration } from '../migration.ts';

/**
 * `cargo.zongpai.version`: every write answers with the version of what it wrote, and a
 * zongpai's writes are its registration (version 1), each close and each reopening (one more
 * each). A close of a closed zongpai or a reopening of an open one changes nothing, its version
 * included; boxes appended or moved change the boxes, not the zongpai.
 */
export const zongpaiVersion: Migration = {
  id: 12,
  name: 'zongpai-version',
  statements: ['ALTER TABLE cargo.zongpai ADD COLUMN version integer NOT NULL DEFAULT 1 CHECK (version >= 1)'],
};
