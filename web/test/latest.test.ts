import { describe, expect, it } from 'vitest';
import { createLatest } from '../src/latest.ts';

/** A load the test answers when it wants: the answers arrive in the order the test chooses. */
const deferred = <T>() => {
  let answer = (_: T): void => undefined;
  const promise = new Promise<T>((resolve) => (answer = resolve));
  return { promise, answer };
};

describe('the last scan wins', () => {
  it('drops the answer to a load a later one superseded, however late it arrives', async () => {
    const { latest } = createLatest();
    const first = deferred<string>();
    const second = deferred<string>();
    const shown = [latest(first.promise), latest(second.promise)];
    second.answer('T2-C01');
    first.answer('T2-C00');
    expect(await Promise.all(shown)).toEqual([undefined, 'T2-C01']);
  });

  it('keeps the answer to the only load, and to the next one started after it was answered', async () => {
    const { latest } = createLatest();
    expect(await latest(Promise.resolve('BOX-1004'))).toBe('BOX-1004');
    expect(await latest(Promise.resolve('BOX-1005'))).toBe('BOX-1005');
  });

  it('drops every answer under way once the screen is left', async () => {
    const { latest, drop } = createLatest();
    const load = deferred<string>();
    const shown = latest(load.promise);
    drop();
    load.answer('SO-24001');
    expect(await shown).toBeUndefined();
  });
});
