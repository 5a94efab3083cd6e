const TEXT_ANSWER = Symbol('text answer');

/**
 * An answer that is not JSON: its media type and its text, as a route's `handle` returns it (a
 * label in ZPL or SVG). The route answers it as it is, with its own `Content-Type` and the
 * headers every answer has; an error on the way is still the unified JSON body.
 */
export interface TextAnswer {
  readonly [TEXT_ANSWER]: true;
  readonly contentType: string;
  readonly text: string;
}

/**
 * @example
 * ```ts
 * handle: async (label, { path }) => textAnswer('image/svg+xml', await label(path.box_no)),
 * ```
 */
export const textAnswer = (contentType: string, text: string): TextAnswer => ({
  [TEXT_ANSWER]: true,
  contentType,
  text,
});

export const isTextAnswer = (answer: unknown): answer is TextAnswer =>
  typeof answer === 'object' && answer !== null && TEXT_ANSWER in answer;
