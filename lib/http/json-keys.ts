/**
 * Names no request field has and that JavaScript gives a meaning of its own: a body holding one
 * is refused rather than read (or dropped) one way or another.
 */
const RESERVED = new Set(['__proto__', 'constructor', 'prototype']);

/** A key of a JSON object that the body cannot be read by: given twice in one object, or reserved. */
export interface KeyProblem {
  /** The object holding the key, `['records', 3]` (`[]`: the body itself). */
  readonly object: readonly (string | number)[];
  readonly key: string;
  readonly kind: 'repeated' | 'reserved';
}

type Frame = { readonly keys: Set<string>; key: string | undefined; expectsKey: boolean } | { index: number };

const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/** The index of the quote that closes the string opened at `open`. */
const closingQuote = (text: string, open: number): number => {
  let at = text.indexOf('"', open + 1);
  for (;;) {
    let slashes = 0;
    while (text.charCodeAt(at - 1 - slashes) === BACKSLASH) slashes += 1;
    if (slashes % 2 === 0) return at;
    at = text.indexOf('"', at + 1);
  }
};

/**
 * The first object key of a JSON text that is given twice in its object or is reserved
 * (`__proto__`, `constructor`, `prototype`), or undefined. `JSON.parse` keeps a repeated key's
 * last value and gives no sign of the others, so the text is walked once more, after it parsed:
 * only its structure and keys, each string found by `indexOf` (a 256 KiB body in about a
 * millisecond). Keys are compared as JSON reads them (`"a"` and `"\u0061"` are one key). A
 * maintained parser that sees repeated keys was not taken: the one that fits (lossless-json)
 * accepts a key repeated with an equal value, parses in JavaScript rather than natively, and
 * would add its size to every function bundle, which is held close to the floor.
 *
 * @example
 * ```ts
 * repeatedOrReservedKey('{"r":[{"a":1,"a":2}]}'); // { object: ['r', 0], key: 'a', kind: 'repeated' }
 * ```
 */
export const repeatedOrReservedKey = (text: string): KeyProblem | undefined => {
  const stack: Frame[] = [];
  const problem = (key: string, kind: KeyProblem['kind']): KeyProblem => ({
    object: stack.slice(0, -1).map((f) => ('keys' in f ? (f.key as string) : f.index)),
    key,
    kind,
  });
  for (let i = 0; i < text.length; i += 1) {
    const ch = text.charCodeAt(i);
    const top = stack.at(-1);
    if (ch === QUOTE) {
      const end = closingQuote(text, i);
      if (top !== undefined && 'keys' in top && top.expectsKey) {
        const raw = text.slice(i + 1, end);
        const key = raw.includes('\\') ? (JSON.parse(`"${raw}"`) as string) : raw;
        if (RESERVED.has(key)) return problem(key, 'reserved');
        if (top.keys.has(key)) return problem(key, 'repeated');
        top.keys.add(key);
        top.key = key;
        top.expectsKey = false;
      }
      i = end;
    } else if (ch === 0x7b /* { */) stack.push({ keys: new Set(), key: undefined, expectsKey: true });
    else if (ch === 0x5b /* [ */) stack.push({ index: 0 });
    else if (ch === 0x7d /* } */ || ch === 0x5d /* ] */) stack.pop();
    else if (ch === 0x2c /* , */ && top !== undefined) {
      if ('keys' in top) top.expectsKey = true;
      else top.index += 1;
    }
  }
  return undefined;
};
