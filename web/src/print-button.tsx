import { useRef, useState } from 'preact/hooks';
import { useApp, type AppState } from './context.ts';

/** The printing code, a chunk of its own: loaded at the first tap on a print button, not with the app. */
type Printing = typeof import('./print/print.tsx');

/**
 * A button that prints (a label, a packing list): it loads the printing code on its first tap
 * and does nothing while a print is being prepared, so a double tap opens one print dialog.
 */
export const PrintButton = ({
  label,
  print,
}: {
  label: string;
  print: (printing: Printing, app: AppState) => Promise<void>;
}) => {
  const app = useApp();
  const preparing = useRef(false);
  const [busy, setBusy] = useState(false);
  const onClick = async () => {
    if (preparing.current) return;
    preparing.current = true;
    setBusy(true);
    try {
      await print(await import('./print/print.tsx'), app);
    } catch {
      // The printing code did not arrive (no network, not kept offline yet).
      app.refused({ ok: false, status: 0, offline: true });
    } finally {
      preparing.current = false;
      setBusy(false);
    }
  };
  return (
    <button type="button" disabled={busy} onClick={() => void onClick()}>
      {label}
    </button>
  );
};
