import type { MiddlewareObj } from '@middy/core';
import type { ServiceEvent, ServiceResult } from './event.ts';

const lowerCased = <V>(headers: Readonly<Record<string, V>>): Record<string, V> => {
  const out = Object.create(null) as Record<string, V>;
  for (const name in headers) out[name.toLowerCase()] = headers[name] as V;
  return out;
};

/** Multi-value headers by lower-cased name: names sent in two cases are one header, with the values of both. */
const lowerCasedLists = (
  headers: Readonly<Record<string, readonly string[] | undefined>>,
): Record<string, string[]> => {
  const out = Object.create(null) as Record<string, string[]>;
  for (const name in headers) (out[name.toLowerCase()] ??= []).push(...(headers[name] ?? []));
  return out;
};

/**
 * Middleware: header names in lower case (`headers` and `multiValueHeaders`), so that every later
 * step reads `event.headers['if-match']` whatever case the client sent. The values are untouched;
 * a header sent twice under names that differ in case keeps all its values in `multiValueHeaders`
 * (`headers` keeps one, as API Gateway's does for a repeated header), so that a step reading it can
 * refuse what it cannot read one way only.
 *
 * @example
 * ```ts
 * middy().use(lowerCaseHeaderNames());
 * ```
 */
export const lowerCaseHeaderNames = (): MiddlewareObj<ServiceEvent, ServiceResult> => ({
  before: ({ event }) => {
    if (event.headers) event.headers = lowerCased(event.headers);
    if (event.multiValueHeaders) event.multiValueHeaders = lowerCasedLists(event.multiValueHeaders);
  },
});
