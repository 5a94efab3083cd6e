import { describe, expect, it } from 'vitest';
import type { ServiceEvent } from '../../../lib/http/event.ts';
import { lowerCaseHeaderNames } from '../../../lib/http/header-names.ts';

const run = (event: Partial<ServiceEvent>) => {
  const before = lowerCaseHeaderNames().before as (request: { event: ServiceEvent }) => void;
  const request = { event: event as ServiceEvent };
  before(request);
  return request.event;
};

describe('header names middleware', () => {
  it('hands every later step the header names in lower case and the values as sent', () => {
    const event = run({
      headers: { 'If-Match': '"3"', 'IDEMPOTENCY-KEY': 'K-1', 'accept-language': 'zh-CN' },
      multiValueHeaders: { 'If-Match': ['"3"'], 'Accept-Language': ['zh-CN', 'en'] },
    });
    expect({ ...event.headers }).toEqual({ 'if-match': '"3"', 'idempotency-key': 'K-1', 'accept-language': 'zh-CN' });
    expect({ ...event.multiValueHeaders }).toEqual({ 'if-match': ['"3"'], 'accept-language': ['zh-CN', 'en'] });
  });

  it('keeps every value of a header sent under names that differ in case, so that it is not read as one', () => {
    const event = run({
      headers: { 'Idempotency-Key': 'K-1', 'idempotency-key': 'K-2' },
      multiValueHeaders: { 'Idempotency-Key': ['K-1'], 'idempotency-key': ['K-2'] },
    });
    expect(event.multiValueHeaders['idempotency-key']).toEqual(['K-1', 'K-2']);
  });

  it('treats a header named like an Object property as a plain header', () => {
    const event = run({ headers: JSON.parse('{"__proto__": "x", "Constructor": "y"}') as Record<string, string> });
    expect(Object.keys(event.headers)).toEqual(['__proto__', 'constructor']);
    expect(event.headers['__proto__' as string]).toBe('x');
  });

  it('leaves an event without headers as it is', () => {
    expect(run({ headers: undefined as never, multiValueHeaders: undefined as never })).toEqual({
      headers: undefined,
      multiValueHeaders: undefined,
    });
  });
});
