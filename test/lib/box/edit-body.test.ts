import { describe, expect, it } from 'vitest';
import { makeBoxSchemas } from '../../../lib/box/schemas.ts';
import { loadConfig } from '../../../lib/config.ts';
import { AppError, errorBody } from '../../../lib/errors/app-error.ts';
import type { ServiceEvent } from '../../../lib/http/event.ts';
import { validate } from '../../../lib/http/validate.ts';
import { makeFieldCodes, makeFields } from '../../../lib/rules/fields.ts';

const config = loadConfig({});
const schemas = makeBoxSchemas(config, makeFields(config));
const middleware = validate(schemas.edit, makeFieldCodes(config));

/** What `PATCH /v1/box/{box_no}` answers for this body. */
const refusal = (json: unknown): AppError => {
  const event = {
    state: { json },
    pathParameters: { box_no: 'BOX-1001' },
    queryStringParameters: null,
  } as unknown as ServiceEvent;
  try {
    void middleware.before?.({ event } as never);
  } catch (error) {
    return error as AppError;
  }
  throw new Error('the body was accepted');
};

describe('an edit that names nothing to change', () => {
  it('refuses an empty PATCH body with VALIDATION_ERROR naming the body, in English and Chinese', () => {
    const error = refusal({ version: 1 });
    expect(error.code).toBe('VALIDATION_ERROR');
    expect(errorBody(error, 'en').message).toBe('body must name a zongpai_no or items to change');
    expect(errorBody(error, 'zh').message).toBe('字段 body 无效：必须给出要修改的 zongpai_no 或 items');
  });
});
