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
 * boxes of every page in order and how many pages there were (20 at most).
 */
export const everyBoxPage = async <Box extends { box_no: string }>(
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
    boxes.push(...(res.body.boxes as Box[]));
    cursor = res.body.next_cursor as string | null;
    pages += 1;
  } while (cursor !== null && pages < 20);
  return { boxes, pages };
};
