import { Logger } from '@aws-lambda-powertools/logger';
import type { Request } from '@middy/core';
import { describe, expect, it, vi } from 'vitest';
import { boxOutcome, type BoxOutcomeRow } from '../../../lib/box/outcome.ts';
import { AppError, errorBody } from '../../../lib/errors/app-error.ts';
import { errorResponder } from '../../../lib/http/error-responder.ts';
import type { ServiceEvent, ServiceResult } from '../../../lib/http/event.ts';

/** A box write's outcome row with no problem and no box written. */
const nothing: BoxOutcomeRow = {
  error_code: null,
  error_value: null,
  error_reason: null,
  error_planned: null,
  error_version: null,
  error_other: null,
  box_no: null,
  zongpai_no: null,
  status: null,
  version: null,
  total_quantity: null,
  saved_at: null,
  saved_by: null,
  complete: null,
  items: [],
};

const problem = (row: Partial<BoxOutcomeRow>): BoxOutcomeRow => ({ ...nothing, ...row });

const thrown = (run: () => unknown): unknown => {
  try {
    run();
  } catch (error) {
    return error;
  }
  throw new Error('nothing was thrown');
};

/** The error body, in `language`, of the AppError a box write outcome throws. */
const refusal = (language: 'en' | 'zh', ...outcome: Parameters<typeof boxOutcome>) => {
  const error = thrown(() => boxOutcome(...outcome));
  expect(error).toBeInstanceOf(AppError);
  return errorBody(error as AppError, language);
};

/** What the caller receives for `error`, and what was logged, through the service's error responder. */
const answered = (error: unknown) => {
  const logger = new Logger();
  const logged = vi.spyOn(logger, 'error');
  const request = {
    event: { headers: {}, requestContext: { requestId: 'req-1' } },
    error,
    response: undefined,
  } as unknown as Request<ServiceEvent, ServiceResult>;
  void errorResponder({ logger }).onError?.(request);
  return {
    status: request.response?.statusCode,
    body: JSON.parse(request.response?.body ?? '{}') as Record<string, unknown>,
    logged: logged.mock.calls,
  };
};

describe('a box write outcome', () => {
  it('answers a misspelt error code from a statement with 500 INTERNAL_ERROR, logged, never a plausible wrong answer', () => {
    const res = answered(
      thrown(() =>
        boxOutcome(problem({ error_code: 'ZONGPAI_CLOSD', error_value: 'PLT-0001' }), 'BOX_ALREADY_BOXED', 'BOX-1001'),
      ),
    );
    expect({ status: res.status, code: res.body.error_code }).toEqual({ status: 500, code: 'INTERNAL_ERROR' });
    expect(JSON.stringify(res.body)).not.toContain('ZONGPAI_CLOSD');
    expect(res.logged).toEqual([
      [
        'request failed',
        {
          error_code: 'INTERNAL_ERROR',
          error: expect.objectContaining({ message: expect.stringContaining('ZONGPAI_CLOSD') }),
        },
      ],
    ]);
  });

  it('answers a box that exists but is not boxed with BOX_NOT_FOUND saying so', () => {
    const row = problem({ error_code: 'BOX_NOT_FOUND', error_value: 'BOX-1001', error_reason: 'not_boxed' });
    expect(refusal('en', row, 'VERSION_CONFLICT', 'BOX-1001', 2)).toEqual({
      error_code: 'BOX_NOT_FOUND',
      domain: 'box',
      message: "Box 'BOX-1001' is not boxed; save it first",
    });
  });

  it('names the version a VERSION_CONFLICT was based on', () => {
    const row = problem({ error_code: 'VERSION_CONFLICT', error_value: 'BOX-1001', error_version: 3 });
    expect(refusal('en', row, 'VERSION_CONFLICT', 'BOX-1001', 3).message).toBe(
      "Box 'BOX-1001' was changed by someone else: version 3 is not the current one; reload the box and try again",
    );
  });

  it('names the version when a racing change wrote first', () => {
    expect(refusal('zh', nothing, 'VERSION_CONFLICT', 'BOX-1001', 4).message).toBe(
      "箱 'BOX-1001'已被他人修改：版本 4 不是当前版本，请刷新后重试",
    );
  });

  it('names the planned quantity a QUANTITY_EXCEEDS_PLAN goes beyond', () => {
    const row = problem({ error_code: 'QUANTITY_EXCEEDS_PLAN', error_value: 'SKU-TEA-250', error_planned: 24 });
    expect(refusal('en', row, 'BOX_ALREADY_BOXED', 'BOX-1001').message).toBe(
      "Item 'SKU-TEA-250': quantity is more than the planned 24",
    );
  });
});
