import { expect } from 'vitest';
import type { ApiResponse } from './service.ts';

/** Asserts the SPEC's unified error body, and that it leaks nothing internal. */
export const expectError = (res: ApiResponse, status: number, errorCode: string, domain?: string) => {
  expect({ status: res.status, error_code: res.body?.error_code }).toEqual({ status, error_code: errorCode });
  expect(res.body).toEqual(
    expect.objectContaining({
      error_code: errorCode,
      message: expect.any(String),
      domain: domain ?? expect.any(String),
    }),
  );
  const text = JSON.stringify(res.body);
  expect(text).not.toMatch(/SQLState|stack|\bat \w+ \(|node_modules|cargo\.\w+|SELECT |INSERT |Exception/);
};

/**
 * Reads a listing of boxes page by page (`read` gets the previous page's `next_cursor`, null
 * first) until `next_cursor` is null, each page answered 200 and checked by `check`; answers the
 * boxes of every page in order, a box whose items went on (`more_items`) put back together with
 * its rest at the top of the next page, and how many pages there were (20 at most).
 */
export const everyBoxPage = async <Box extends { box_no: string; items?: unknown[] }>(
  read: (cursor: string | null) => Promise<ApiResponse>,
  check: (body: any) => void,
): Promise<{ boxes: Box[]; pages: number }> => {
  const boxes: Box[] = [];
  let cursor: string | null = null;
  let pages = 0;
  do {
    const res = await read(cursor);
    expect(res.status, JSON.stringify(res.body).slice(0, 300)).toBe(200);
    check(res.body);
    for (const box of res.body.boxes as (Box & { more_items: boolean })[]) {
      const last = boxes[boxes.length - 1] as (Box & { more_items: boolean }) | undefined;
      if (last?.more_items === true) {
        expect(box.box_no).toBe(last.box_no);
        boxes[boxes.length - 1] = { ...box, items: [...(last.items ?? []), ...(box.items ?? [])] };
      } else boxes.push(box);
    }
    cursor = res.body.next_cursor as string | null;
    pages += 1;
  } while (cursor !== null && pages < 20);
  return { boxes, pages };
};
