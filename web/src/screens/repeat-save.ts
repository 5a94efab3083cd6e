import { useRef } from 'preact/hooks';
import { useApp, type Notice } from '../context.ts';

/**
 * The zongpai a box was just saved to, on a screen that takes a box next (Box, One scan): a
 * second pull of the trigger on it (a wedge sends the same zongpai again) is told as a repeat of
 * that save, in its tone, never looked up as a box (which would paint the save red). Any other
 * scan ends it. Codes compare as the service reads them: trimmed, letters upper-cased.
 */
export const useRepeatOfSave = () => {
  const app = useApp();
  const last = useRef<{ codes: readonly string[]; box: string; notice: Notice } | undefined>(undefined);
  return {
    /** A save answered: `codes` the zongpai as scanned and as the service named it. */
    saved: (codes: readonly string[], box: string, notice: Notice) => {
      last.current = { codes: codes.map((c) => c.trim().toUpperCase()), box, notice };
    },
    /** Whether `code` repeats the zongpai just saved to (then told so); ends the repeat otherwise. */
    isRepeat: (code: string): boolean => {
      const saved = last.current;
      if (saved === undefined || !saved.codes.includes(code.trim().toUpperCase())) {
        last.current = undefined;
        return false;
      }
      app.notify({
        ...saved.notice,
        text: app.t('scannedAgain', { zongpai: code.trim().toUpperCase(), box: saved.box }),
        detail: saved.notice.text,
      });
      return true;
    },
  };
};
