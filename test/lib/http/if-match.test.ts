import { describe, expect, it } from 'vitest';
import { AppError } from '../../../lib/errors/app-error.ts';
import type { ServiceEvent } from '../../../lib/http/event.ts';
import {
  BOX_VERSION,
  ifMatch,
  LOCATION_VERSION,
  RECORD_VERSION,
  type VersionRule,
} from '../../../lib/http/if-match.ts';

/** Runs the If-Match step of a route with `rule` over a validated body and an `If-Match` header. */
const step = (rule: VersionRule, body: unknown, header?: string): ServiceEvent => {
  const event = {
    headers: header === undefined ? {} : { 'if-match': header },
    state: { input: { body, path: {}, query: undefined } },
  } as unknown as ServiceEvent;
  void ifMatch(rule).before?.({ event } as never);
  return event;
};

const refusal = (run: () => unknown) => {
  try {
    run();
  } catch (error) {
    if (error instanceof AppError) return { code: error.code, params: error.params };
    throw error;
  }
  throw new Error('accepted');
};

describe('the If-Match step of a versioned route', () => {
  it('keeps the version the body or the header names as the request state', () => {
    expect(step(BOX_VERSION, { version: 3 }).state?.version).toBe(3);
    expect(step(BOX_VERSION, undefined, 'W/"4"').state?.version).toBe(4);
    expect(step(RECORD_VERSION, { version: 2 }, '"2"').state?.version).toBe(2);
    expect(step(LOCATION_VERSION, { kind: 'DOCK' }, '5').state?.version).toBe(5);
  });

  it('leaves an optional version unnamed when neither the body nor the header names one', () => {
    expect(step(LOCATION_VERSION, { kind: 'DOCK' }).state?.version).toBeUndefined();
    expect(step(LOCATION_VERSION, { kind: 'DOCK' }, '  ').state?.version).toBeUndefined();
  });

  it("refuses with the rule's reasons: a header that names no version, a disagreement, a missing version", () => {
    expect(refusal(() => step(RECORD_VERSION, undefined, 'abc'))).toMatchObject({
      code: 'VALIDATION_ERROR',
      params: { field: 'If-Match', reason: 'if_match_form', versioned: 'record' },
    });
    expect(refusal(() => step(BOX_VERSION, { version: 1 }, '"2"'))).toMatchObject({
      params: { field: 'version', reason: 'differs_from_if_match' },
    });
    expect(refusal(() => step(BOX_VERSION, {}))).toMatchObject({
      params: { field: 'version', reason: 'version_missing', versioned: 'box' },
    });
    expect(refusal(() => step(LOCATION_VERSION, {}, '"0"'))).toMatchObject({
      params: { field: 'version', reason: 'version_below_one' },
    });
  });
});
