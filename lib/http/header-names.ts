import type { MiddlewareObj } from '@middy/core';
import type { ServiceEvent, ServiceResult } from './event.ts';

const lowerCased = <V>(headers: Readonly<Record<string, V>>): Record<string, V> => {
  const out = Object.create(null) as Record<string, V>;
  for (const name in headers) out[name.toLowerCase()] = headers[name] as V;
  return out;
};

/**
 * Middleware: header names in lower case (`headers` and `multiValueHeaders`), so that every later
 * step reads `event.headers['if-match']` whatever case the client sent. The values are untouched.
 *
 * @example
 * ```ts
 * middy().use(lowerCaseHeaderNames());
 * ```
 */
export const lowerCaseHeaderNames = (): MiddlewareObj<ServiceEvent, ServiceResult> => ({
  before: ({ event }) => {
    if (event.headers) event.headers = lowerCased(event.headers);
    if (event.multiValueHeaders) event.multiValueHeaders = lowerCased(event.multiValueHeaders);
  },
});
