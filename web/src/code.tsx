/**
 * A box, zongpai or location code as one unbreakable word, set smaller when it is long enough
 * to run past the screen (style.css, `.code`).
 */
export const Code = ({ code, testId }: { readonly code: string; readonly testId?: string }) => (
  <span class="code" data-testid={testId} style={{ '--chars': String(code.length) }}>
    {code}
  </span>
);
