import type { MiddlewareObj } from '@middy/core';
import { IF_MATCH } from '../contract/headers.ts';
import { AppError } from '../errors/app-error.ts';
import type { Reason } from '../errors/reasons.ts';
import { requestState, type ServiceEvent, type ServiceResult } from './event.ts';

/**
 * The version an `If-Match` header names: `3`, `"3"` and `W/"3"` all name version 3.
 * `undefined` when there is no header (or an empty one), `null` when it names no version.
 *
 * @example
 * ```ts
 * ifMatchVersion('W/"4"'); // 4
 * ```
 */
export const ifMatchVersion = (header: string | undefined): number | null | undefined => {
  const value = header?.trim();
  if (value === undefined || value === '') return undefined;
  const digits = IF_MATCH.exec(value)?.[1];
  return digits === undefined ? null : Number(digits);
};

/**
 * How a versioned route reads the version a write is based on (a route's `versioned`): what is
 * versioned, as the refusal of an `If-Match` that names no version says; whether a version is
 * required; and the reason a missing one (or one below 1) is refused with. `V` is the type of the
 * version `handle` receives: a number, or `undefined` as well where the version is optional.
 */
export interface VersionRule<V extends number | undefined = number | undefined> {
  readonly versioned: 'box' | 'record' | 'location';
  readonly required: V extends number ? true : boolean;
  readonly refused: Reason;
}

/** A saved box's version (edit, undo): required. */
export const BOX_VERSION: VersionRule<number> = {
  versioned: 'box',
  required: true,
  refused: { reason: 'version_missing', versioned: 'box' },
};

/** A location record's version (void): 1 until voided, 2 after; required. */
export const RECORD_VERSION: VersionRule<number> = {
  versioned: 'record',
  required: true,
  refused: { reason: 'version_missing', versioned: 'record' },
};

/** A registered location's version (PUT): optional; when named, the change is conditional on it. */
export const LOCATION_VERSION: VersionRule<number | undefined> = {
  versioned: 'location',
  required: false,
  refused: { reason: 'version_below_one' },
};

/**
 * The version a write is based on: the body's `version`, or the `If-Match` header; both may be
 * sent only if they agree. An optional version that neither names is `undefined`.
 *
 * @example
 * ```ts
 * requestVersion(BOX_VERSION, undefined, '"4"'); // 4
 * ```
 */
export const requestVersion = <V extends number | undefined>(
  rule: VersionRule<V>,
  bodyVersion: number | undefined,
  ifMatch: string | undefined,
): V => {
  if (!rule.required && bodyVersion === undefined && (ifMatch ?? '').trim() === '') return undefined as V;
  const headerVersion = ifMatchVersion(ifMatch);
  if (headerVersion === null)
    throw new AppError('VALIDATION_ERROR', { reason: 'if_match_form', versioned: rule.versioned, field: 'If-Match' });
  if (bodyVersion !== undefined && headerVersion !== undefined && bodyVersion !== headerVersion)
    throw new AppError('VALIDATION_ERROR', { field: 'version', reason: 'differs_from_if_match' });
  const version = bodyVersion ?? headerVersion;
  if (version === undefined || version < 1)
    throw new AppError('VALIDATION_ERROR', { ...rule.refused, field: 'version' });
  return version as V;
};

/** The body's `version`, as its schema validated it; `undefined` when the body names none. */
const bodyVersion = (body: unknown): number | undefined =>
  typeof body === 'object' && body !== null && 'version' in body && typeof body.version === 'number'
    ? body.version
    : undefined;

/**
 * Middleware, on a versioned route only (its `versioned` rule): reads the version the write is
 * based on from the validated body's `version` and the `If-Match` header by the rule, refuses
 * it with the SPEC's codes (400 VALIDATION_ERROR naming `If-Match` or `version`), and keeps it
 * as the request's `version`, which `handle` receives typed.
 *
 * @example
 * ```ts
 * middy().use(lowerCaseHeaderNames()).use(jsonBody()).use(validate(schemas, codes)).use(ifMatch(BOX_VERSION));
 * ```
 */
export const ifMatch = (rule: VersionRule): MiddlewareObj<ServiceEvent, ServiceResult> => ({
  before: ({ event }) => {
    const state = requestState(event);
    const version = requestVersion(rule, bodyVersion(state.input?.body), event.headers?.['if-match']);
    if (version !== undefined) state.version = version;
  },
});
