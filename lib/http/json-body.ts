import type { MiddlewareObj } from '@middy/core';
import { AppError } from '../errors/app-error.ts';
import { requestState, type ServiceEvent, type ServiceResult } from './event.ts';
import { repeatedOrReservedKey, type KeyProblem } from './json-keys.ts';

/** The SPEC's body limit; API Gateway enforces its own (10 MB) before us. */
const MAX_BODY_BYTES = 256 * 1024;

const JSON_MEDIA_TYPE = /^application\/(?:[\w.+-]+\+)?json\s*(?:;|$)/i;
/** Every `charset=` parameter of a Content-Type, quoted or not. */
const CHARSET_PARAMETER = /;\s*charset\s*=\s*("[^"]*"|[^;\s]*)/gi;
const UTF8_NAME = /^utf-?8$/i;
/** What a gateway puts where a byte was not UTF-8 when it hands the body over as a string. */
const REPLACEMENT_CHARACTER = '\uFFFD';

/** A JSON media type whose charset, when named, is UTF-8 (the only encoding JSON may travel in, RFC 8259). */
const isUtf8Json = (contentType: string): boolean =>
  JSON_MEDIA_TYPE.test(contentType) &&
  [...contentType.matchAll(CHARSET_PARAMETER)].every(([, name = '']) => UTF8_NAME.test(name.replaceAll('"', '')));

/**
 * The body's text, refusing bytes that are not UTF-8 rather than storing U+FFFD in their place.
 * A base64 body is decoded strictly; a string body already went through API Gateway's decoding,
 * so a raw U+FFFD in it is an undecodable byte (a client that means U+FFFD can write `\ufffd`).
 */
const bodyText = (raw: Buffer, isBase64Encoded: boolean): string => {
  const text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(raw);
  if (!isBase64Encoded && text.includes(REPLACEMENT_CHARACTER)) throw new TypeError('undecodable bytes in the body');
  return text;
};

/**
 * A JSON number JavaScript would have rounded to an integer it is not, such as `5.0000000000000001`
 * (read as 5) or `1e-400` (read as 0). It stands in the parsed body where that number was, so that
 * the field's schema refuses it (it is no number) and its message quotes the number as sent.
 */
export class InexactNumber {
  constructor(readonly source: string) {}
  toString(): string {
    return this.source;
  }
}

const JSON_NUMBER = /^-?(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/;

/** True when a JSON number's text is an integer: no non-zero digit after the point once the exponent is applied. */
export const denotesInteger = (source: string): boolean => {
  const [, whole = '', fraction = '', exponent = '0'] = JSON_NUMBER.exec(source) ?? [];
  const digits = `${whole}${fraction}`;
  const point = whole.length + Number(exponent);
  return !/[1-9]/.test(digits.slice(Math.max(point, 0)));
};

/**
 * The reviver: stands an {@link InexactNumber} in for an integer JavaScript made up.
 * (`context.source`, JSON.parse source text access, is in Node.js 22 and later; Lambda runs 24.)
 */
const revive = (_key: string, value: unknown, context?: { source?: string }): unknown => {
  if (
    typeof value === 'number' &&
    Number.isInteger(value) &&
    context?.source !== undefined &&
    !denotesInteger(context.source)
  )
    return new InexactNumber(context.source);
  return value;
};

/** `['records', 3]` → `records[3]`, as validation names a field. */
const fieldOf = (path: readonly (string | number)[]): string =>
  path.reduce<string>((acc, k) => (typeof k === 'number' ? `${acc}[${k}]` : acc === '' ? k : `${acc}.${k}`), '');

/**
 * A body that parses but cannot be read one way only: a key given twice in one object (JSON.parse
 * would keep its last value) is VALIDATION_ERROR naming it; a reserved key (`__proto__`,
 * `constructor`, `prototype`: no request has such a field) is refused as any field the request
 * does not take is, naming the object that holds it.
 */
const unreadable = ({ object, key, kind }: KeyProblem): AppError =>
  kind === 'repeated'
    ? new AppError('VALIDATION_ERROR', { field: fieldOf([...object, key]), reason: 'given_twice' })
    : new AppError('VALIDATION_ERROR', { field: fieldOf(object) || 'body', reason: 'unknown_fields', fields: [key] });

/**
 * Middleware: parses a JSON body with the SPEC's answers: 415 UNSUPPORTED_MEDIA_TYPE for a
 * body that is not declared JSON or names a charset other than UTF-8, 413 PAYLOAD_TOO_LARGE
 * over 256 KiB, 400 MALFORMED_JSON when it is not UTF-8 or does not parse, 400 VALIDATION_ERROR
 * for a key given twice in an object or a reserved one (see {@link repeatedOrReservedKey}). Written here rather than using Middy's JSON parser because that one
 * answers invalid JSON with 422 and has no size limit.
 *
 * @example
 * ```ts
 * middy().use(httpHeaderNormalizer()).use(jsonBody());
 * ```
 */
export const jsonBody = (options: { maxBytes?: number } = {}): MiddlewareObj<ServiceEvent, ServiceResult> => {
  const maxBytes = options.maxBytes ?? MAX_BODY_BYTES;
  return {
    before: (request) => {
      const { body, isBase64Encoded, headers } = request.event;
      if (body === null || body === undefined || body === '') return;
      const raw = isBase64Encoded ? Buffer.from(body, 'base64') : Buffer.from(body, 'utf8');
      if (raw.byteLength > maxBytes) throw new AppError('PAYLOAD_TOO_LARGE', { limit: maxBytes });
      if (!isUtf8Json(headers?.['content-type'] ?? '')) throw new AppError('UNSUPPORTED_MEDIA_TYPE');
      let text: string;
      try {
        text = bodyText(raw, isBase64Encoded);
        requestState(request.event).json = JSON.parse(text, revive);
      } catch (cause) {
        throw new AppError('MALFORMED_JSON', {}, [], { cause });
      }
      const problem = repeatedOrReservedKey(text);
      if (problem !== undefined) throw unreadable(problem);
    },
  };
};
