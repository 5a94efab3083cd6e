import type { Migration } from '../migration.ts';

/**
 * `cargo.zongpai_boxes(zongpai_no)`: the boxes on a zongpai as JSON, read when it is called.
 * A VOLATILE PL/pgSQL function takes a fresh snapshot for each query it runs, so a close that
 * had to wait for appends in flight (they hold the zongpai row FOR SHARE) lists the boxes they
 * committed; the statement's own snapshot, taken before it waited, would not.
 */
export const zongpaiBoxes: Migration = {
  id: 4,
  name: 'zongpai-boxes',
  statements: [
    `CREATE FUNCTION cargo.zongpai_boxes(p_zongpai_no text) RETURNS json
       LANGUAGE plpgsql VOLATILE
     AS $fn$
     BEGIN
       RETURN COALESCE((SELECT json_agg(json_build_object('box_no', b.box_no, 'total_quantity', b.total_quantity) ORDER BY b.box_no)
                        FROM cargo.box b WHERE b.zongpai_no = p_zongpai_no), '[]'::json);
     END
     $fn$`,
  ],
};
