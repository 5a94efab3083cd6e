import { useEffect, useState } from 'preact/hooks';

/**
 * A screen's state kept in sessionStorage under `key`: it outlives the screen (a switch to
 * another tab and back) and a reload, as Locate's location does, and goes with the browser tab.
 * Put the user in the key, so that the next operator on the device starts with their own (and
 * finds their own again when they sign in again in this tab). `undefined` is kept as no entry.
 *
 * @example
 * ```ts
 * const [step, setStep] = useSessionState(`cargo.box.${user}`, { name: 'box' });
 * ```
 */
export const useSessionState = <T>(key: string, initial: T) => {
  const [value, setValue] = useState<T>(() => {
    const kept = sessionStorage.getItem(key);
    if (kept === null) return initial;
    try {
      return JSON.parse(kept) as T;
    } catch {
      return initial;
    }
  });
  useEffect(() => {
    if (value === undefined) sessionStorage.removeItem(key);
    else sessionStorage.setItem(key, JSON.stringify(value));
  }, [key, value]);
  return [value, setValue] as const;
};
