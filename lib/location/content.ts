import type { Db } from '../db/types.ts';
import { keyCursor } from '../rules/key-cursor.ts';

/** One entry of what is at a location: a zongpai with the boxes it carries there, a box, or other cargo. */
export interface LocationCargo {
  cargo_no: string;
  kind: 'BOX' | 'ZONGPAI' | 'CARGO';
  /** When it was scanned there (the scan time, taken back when its upload was ahead of the server's clock). */
  since: string;
  off_shelf: boolean;
  /** For a zongpai: the boxes on it that are where it is (none scanned elsewhere since). */
  boxes: string[];
}

export interface LocationContent {
  location_code: string;
  cargo: LocationCargo[];
  next_cursor: string | null;
}

/**
 * How many current locations one page looks at, per entry asked for. A box whose zongpai was
 * scanned after it is where its zongpai is, not here, and a box whose zongpai is here is listed
 * under it: such entries are skipped, and a page
 * looks at no more than this many per entry, so a location full of boxes that left on their
 * pallets still answers in bounded time (with a shorter page and a cursor to go on).
 */
export const WINDOW_PER_ENTRY = 4;

/**
 * What is at a location now, in `cargo_no` order from the cursor: the current locations kept
 * in `location_current` (index range scan on `(location_code, cargo_no)`), each looked up as a
 * zongpai and as a box by primary key; a box on a zongpai is not an entry of its own when its
 * zongpai was scanned later (it is where its zongpai is) or is here too (it is on it here), and a
 * zongpai lists the boxes it carries here: those not scanned since, and those scanned here. One row per
 * entry (`cargo`), each followed by a row per box its zongpai carries here (`box`): a container's
 * box numbers are more than one Data API result row carries as a list (64 KB). `since` is the
 * timestamptz itself, read with its era (a scan stored ordered before 1 AD), not formatted here.
 */
export const CONTENT_SQL = `
WITH here AS (
  SELECT c.cargo_no, c.record_id, c.occurred_at, c.off_shelf
  FROM cargo.location_current c
  WHERE c.location_code = :location_code AND c.cargo_no > :after
  ORDER BY c.cargo_no
  LIMIT :window
),
placed AS (
  SELECT h.*, (z.zongpai_no IS NOT NULL) AS is_zongpai, (b.box_no IS NOT NULL) AS is_box,
         COALESCE((zc.occurred_at, zc.record_id) > (h.occurred_at, h.record_id) OR zc.location_code = :location_code, false)
           AS with_zongpai
  FROM here h
  LEFT JOIN cargo.zongpai z ON z.zongpai_no = h.cargo_no
  LEFT JOIN cargo.box b ON b.box_no = h.cargo_no
  LEFT JOIN cargo.location_current zc ON zc.cargo_no = b.zongpai_no AND b.status = 'BOXED'
)
SELECT p.cargo_no, 'cargo' AS part, NULL::text AS box_no,
       CASE WHEN p.is_zongpai THEN 'ZONGPAI' WHEN p.is_box THEN 'BOX' ELSE 'CARGO' END AS kind,
       p.occurred_at AS since, p.off_shelf, p.with_zongpai
FROM placed p
UNION ALL
SELECT p.cargo_no, 'box', b.box_no, NULL, NULL, NULL, NULL
FROM placed p
JOIN cargo.box b ON b.zongpai_no = p.cargo_no AND b.status = 'BOXED'
LEFT JOIN cargo.location_current bc ON bc.cargo_no = b.box_no
WHERE p.is_zongpai
  AND (bc.cargo_no IS NULL OR (bc.occurred_at, bc.record_id) < (p.occurred_at, p.record_id) OR bc.location_code = :location_code)
ORDER BY cargo_no, part DESC, box_no`;

type ContentRow = Record<string, unknown> &
  (
    | {
        cargo_no: string;
        part: 'cargo';
        kind: LocationCargo['kind'];
        since: string;
        off_shelf: boolean;
        with_zongpai: boolean;
      }
    | { cargo_no: string; part: 'box'; box_no: string }
  );

/** The entries of the rows, each with the boxes of the rows after it, in the statement's order. */
const entriesOf = (rows: readonly ContentRow[]): (LocationCargo & { with_zongpai: boolean })[] => {
  const entries: (LocationCargo & { with_zongpai: boolean })[] = [];
  for (const row of rows) {
    if (row.part === 'cargo') {
      const { cargo_no, kind, since, off_shelf, with_zongpai } = row;
      entries.push({ cargo_no, kind, since, off_shelf, boxes: [], with_zongpai });
    } else entries[entries.length - 1]?.boxes.push(row.box_no);
  }
  return entries;
};

/** A content page's position: the last cargo number looked at. */
const CURSOR = keyCursor('c', '[^\\p{C}|]{1,200}');

/**
 * Answers what is at a location now, one page at a time, in one statement.
 *
 * @example
 * ```ts
 * const content = makeLocationContent({ db });
 * const page = await content('DOCK-3', { limit: 20 }); // { location_code, cargo: [...], next_cursor }
 * ```
 */
export const makeLocationContent =
  ({ db }: { db: Db }) =>
  async (locationCode: string, page: { limit: number; cursor?: string }): Promise<LocationContent> => {
    const window = page.limit * WINDOW_PER_ENTRY + 1;
    const { rows } = await db.query<ContentRow>(CONTENT_SQL, {
      location_code: locationCode,
      after: page.cursor === undefined ? '' : CURSOR.decode(page.cursor),
      window,
    });
    const looked = entriesOf(rows);
    const here = looked.filter((r) => !r.with_zongpai);
    const entries = here
      .slice(0, page.limit)
      .map(({ cargo_no, kind, since, off_shelf, boxes }) => ({ cargo_no, kind, since, off_shelf, boxes }));
    // More may follow when this page is full and something is left after it, or when the window ended before the page filled.
    const lastLooked = looked.length === window ? looked[looked.length - 1]?.cargo_no : undefined;
    const after = here.length > page.limit ? entries[entries.length - 1]?.cargo_no : lastLooked;
    return {
      location_code: locationCode,
      cargo: entries,
      next_cursor: after === undefined ? null : CURSOR.encode(after),
    };
  };
