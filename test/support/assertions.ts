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
