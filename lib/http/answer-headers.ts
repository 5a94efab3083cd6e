/**
 * What every answer of the API says about caching: nothing may keep it. An answer is one
 * caller's view at one moment (a 404 read just before the operator's own write, a 503 a device
 * retries after its Retry-After), so neither CloudFront nor a browser or proxy may answer a
 * request from a copy. The gateway responses (infra/gateway-errors.ts) say the same.
 */
export const NO_STORE = 'no-store';

/** The headers of every answer a function gives, success or error: JSON (a label says its own type), never stored. */
export const ANSWER_HEADERS: Readonly<Record<string, string>> = {
  'content-type': 'application/json; charset=utf-8',
  'cache-control': NO_STORE,
};
