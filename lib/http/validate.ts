import type { MiddlewareObj } from '@middy/core';
import type * as z from 'zod/mini';
import { AppError, type FieldProblem } from '../errors/app-error.ts';
import { isErrorCode, type ErrorCode, type MessageParams } from '../errors/catalogue.ts';
import { isReasonCode, type Counted, type Reason } from '../errors/reasons.ts';
import type { FieldCodes } from '../rules/fields.ts';
import { reasonInMessage, type IssueParams } from '../rules/refusal.ts';
import { requestState, type ServiceEvent, type ServiceResult } from './event.ts';
import { InexactNumber } from './json-body.ts';

export type { FieldCodes };

export interface RequestSchemas<B, P, Q> {
  readonly body?: z.ZodMiniType<B>;
  readonly path?: z.ZodMiniType<P>;
  readonly query?: z.ZodMiniType<Q>;
}

type Issue = z.core.$ZodIssue;

/** The value the client sent at a path, if any. */
const valueAt = (input: unknown, path: readonly PropertyKey[]): unknown => {
  let value: unknown = input;
  for (const key of path) {
    if (value === null || typeof value !== 'object' || !Object.hasOwn(value, key)) return undefined;
    value = (value as Record<PropertyKey, unknown>)[key];
  }
  return value;
};

const QUOTED_CHARACTERS = 40;

/** `\u0000`, `\u202e`, `\u{e0001}`: a character that would not show, or would reorder the text around it. */
const escaped = (character: string): string => {
  const code = character.codePointAt(0) ?? 0;
  return code > 0xffff ? `\\u{${code.toString(16)}}` : `\\u${code.toString(16).padStart(4, '0')}`;
};

/**
 * What the client sent at a path, for a message: trimmed as codes are, at most 40 characters
 * (whole ones, so no emoji is cut in half), and with control and format characters written as
 * escapes, so that the message names the value that was refused and never one that looks valid.
 */
export const quoteValue = (input: unknown, path: readonly PropertyKey[]): string | undefined => {
  const found = valueAt(input, path);
  const value = found instanceof InexactNumber ? found.source : found;
  if (value === undefined || (typeof value === 'object' && value !== null)) return undefined;
  const characters = Array.from(String(value).trim());
  const shown =
    characters.length > QUOTED_CHARACTERS ? [...characters.slice(0, QUOTED_CHARACTERS - 1), '…'] : characters;
  return shown.map((c) => (/^\p{C}$/u.test(c) ? escaped(c) : c)).join('');
};

/** `['records', 3, 'location_code']` → `records[3].location_code`. */
export const fieldPath = (prefix: string | undefined, path: readonly PropertyKey[]): string =>
  path.reduce<string>(
    (acc, key) => (typeof key === 'number' ? `${acc}[${key}]` : acc === '' ? String(key) : `${acc}.${String(key)}`),
    prefix ?? '',
  );

/** What a bound of a list or a text counts; other bounds are of a number. */
const COUNTED: Readonly<Record<string, Counted>> = { array: 'entries', string: 'characters' };

/**
 * Why Zod refused a value, as a reason code and its parameters; undefined when Zod says no more
 * than that it is invalid (the message says `is invalid`).
 */
const reasonOf = (issue: Issue, present: boolean): Reason | undefined => {
  const carried = reasonInMessage(issue.message);
  if (carried !== undefined) return carried;
  switch (issue.code) {
    case 'invalid_type':
      return !present ? { reason: 'required' } : { reason: 'wrong_type', expected: issue.expected };
    case 'too_small':
      return { reason: 'at_least', limit: Number(issue.minimum), ...counted(issue.origin) };
    case 'too_big':
      return { reason: 'at_most', limit: Number(issue.maximum), ...counted(issue.origin) };
    case 'invalid_value':
      return { reason: 'one_of', values: issue.values.map(String).join(', ') };
    case 'unrecognized_keys':
      return { reason: 'unknown_fields', fields: issue.keys };
    case 'custom': {
      const { error_code: _code, otherwise, ...params } = (issue.params ?? {}) as IssueParams;
      return isReasonCode(params.reason) ? (params as Reason) : otherwise;
    }
    default:
      return undefined;
  }
};

const counted = (origin: string): { counted?: Counted } => {
  const nouns = COUNTED[origin];
  return nouns === undefined ? {} : { counted: nouns };
};

/** One Zod issue as the SPEC's field problem: the field's own code where it has one, else VALIDATION_ERROR. */
const problemOf = (issue: Issue, input: unknown, codes: FieldCodes, prefix: string | undefined): FieldProblem => {
  const field = fieldPath(prefix, issue.path);
  const {
    error_code: errorCode,
    otherwise: _otherwise,
    ...custom
  } = issue.code === 'custom' ? ((issue.params ?? {}) as IssueParams) : ({} as IssueParams);
  const name = [...issue.path].reverse().find((k): k is string => typeof k === 'string');
  // A field the request does not take is the request's mistake, whichever field holds it.
  const mapped =
    errorCode !== undefined && isErrorCode(errorCode)
      ? { code: errorCode }
      : name === undefined || issue.code === 'unrecognized_keys'
        ? undefined
        : codes[name];
  const value = quoteValue(input, issue.path);
  if (mapped === undefined || mapped.code === 'VALIDATION_ERROR')
    return {
      field: field || 'body',
      code: 'VALIDATION_ERROR',
      params: { ...reasonOf(issue, valueAt(input, issue.path) !== undefined), value },
    };
  // A rule on the whole body (e.g. "must name a zongpai_no or items") has an empty path.
  return { field: field || 'body', code: mapped.code, params: { ...mapped.params, ...custom, value } as MessageParams };
};

/**
 * Turns Zod issues into the SPEC's field problems: the field's own code where it has one. A field
 * is listed once, by the first of its checks that failed (a quantity of 2^53 + 1 is both no safe
 * integer and over the maximum: one problem).
 */
export const toProblems = (
  issues: readonly Issue[],
  input: unknown,
  codes: FieldCodes,
  prefix?: string,
): FieldProblem[] => {
  const seen = new Set<string>();
  return issues
    .filter((issue) => {
      const field = fieldPath(prefix, issue.path);
      if (seen.has(field)) return false;
      seen.add(field);
      return true;
    })
    .map((issue) => problemOf(issue, input, codes, prefix));
};

/**
 * Middleware: validates the parsed body, the path parameters and the query string with the
 * route's Zod schemas and keeps the typed, normalised result as the request's `input`
 * (`RequestState`, lib/http/event.ts). The first bad field decides the error code; every bad field
 * is listed in `details`.
 *
 * @example
 * ```ts
 * middy().use(validate({ body: BoxSaveRequest }, fieldCodes));
 * ```
 */
export const validate = <B, P, Q>(
  schemas: RequestSchemas<B, P, Q>,
  codes: FieldCodes,
): MiddlewareObj<ServiceEvent, ServiceResult> => {
  // The query parameters the route takes, read once: one it does not take is not read, once or twice.
  const taken = Object.keys((schemas.query as { shape?: Record<string, unknown> } | undefined)?.shape ?? {});
  return {
    before: (request) => {
      const { event } = request;
      const state = requestState(event);
      const problems: FieldProblem[] = [];
      const parse = <T>(schema: z.ZodMiniType<T> | undefined, input: unknown, prefix?: string): T | undefined => {
        if (schema === undefined) return undefined;
        const result = schema.safeParse(input);
        if (result.success) return result.data;
        problems.push(...toProblems(result.error.issues, input, codes, prefix));
        return undefined;
      };
      const path = parse(schemas.path, event.pathParameters ?? {});
      // API Gateway hands the function a repeated parameter's last value as the parameter; which
      // one the client meant is not ours to guess.
      const repeated = Object.entries(event.multiValueQueryStringParameters ?? {}).filter(
        ([name, all]) => taken.includes(name) && (all?.length ?? 0) > 1,
      );
      for (const [name] of repeated)
        problems.push({ field: name, code: 'VALIDATION_ERROR', params: { reason: 'given_twice' } });
      const query = repeated.length > 0 ? undefined : parse(schemas.query, event.queryStringParameters ?? {});
      const body = parse(schemas.body, state.json);
      const [first] = problems;
      if (first !== undefined) throw new AppError(first.code, { ...first.params, field: first.field }, problems);
      // Each part is parsed when the route has a schema for it; a route without one gets `undefined`, as its type says.
      state.input = { body, path, query };
    },
  };
};
