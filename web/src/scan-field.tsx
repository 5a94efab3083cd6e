import { useEffect, useRef, useState } from 'preact/hooks';
import { useApp } from './context.ts';
import { Camera, hasBarcodeDetector } from './camera.tsx';

/**
 * The field every scan arrives in. A keyboard-wedge scanner types its characters into the
 * focused field and ends with Enter; the field keeps the focus (taken back whenever it drifts
 * to nothing), so the next scan lands here whatever the operator touched. Typing is the
 * fallback (the keyboard button shows the soft keyboard), and the camera reads barcodes where
 * the browser has BarcodeDetector.
 */
export interface ScanFieldProps {
  readonly label: string;
  readonly onScan: (code: string) => void;
  readonly name?: string;
  readonly disabled?: boolean;
}

export const ScanField = ({ label, onScan, name = 'scan', disabled = false }: ScanFieldProps) => {
  const { t } = useApp();
  const input = useRef<HTMLInputElement>(null);
  const [typing, setTyping] = useState(false);
  const [camera, setCamera] = useState(false);

  useEffect(() => {
    const field = input.current;
    // Fields the operator types into keep their focus; anything else gives it back.
    const drifted = () => {
      const active = document.activeElement;
      return (
        active === null ||
        !(
          active instanceof HTMLInputElement ||
          active instanceof HTMLSelectElement ||
          active instanceof HTMLTextAreaElement
        )
      );
    };
    const refocus = () =>
      setTimeout(() => {
        if (drifted()) field?.focus({ preventScroll: true });
      }, 0);
    // A scan that starts while focus is elsewhere (on a button just tapped) lands here.
    const capture = (event: KeyboardEvent) => {
      if (event.key.length === 1 && drifted() && !event.ctrlKey && !event.altKey) field?.focus({ preventScroll: true });
    };
    field?.focus({ preventScroll: true });
    field?.addEventListener('blur', refocus);
    document.addEventListener('click', refocus);
    document.addEventListener('keydown', capture, true);
    return () => {
      field?.removeEventListener('blur', refocus);
      document.removeEventListener('click', refocus);
      document.removeEventListener('keydown', capture, true);
    };
  }, [label]);

  const submit = (code: string) => {
    const trimmed = code.trim();
    if (trimmed === '') return;
    performance.mark('scan-enter');
    onScan(trimmed);
  };

  return (
    <div class="scan">
      <label class="scan-label" for={`scan-${name}`}>
        {label}
      </label>
      <div class="scan-row">
        <input
          id={`scan-${name}`}
          ref={input}
          name={name}
          class="scan-input"
          autocomplete="off"
          autocapitalize="characters"
          spellcheck={false}
          enterkeyhint="done"
          inputMode={typing ? 'text' : 'none'}
          disabled={disabled}
          onKeyDown={(event) => {
            if (event.key !== 'Enter') return;
            event.preventDefault();
            const field = event.currentTarget;
            const code = field.value;
            field.value = '';
            submit(code);
          }}
        />
        <button
          type="button"
          class="icon"
          aria-label="⌨"
          aria-pressed={typing}
          onClick={() => {
            setTyping(!typing);
            input.current?.focus();
          }}
        >
          ⌨
        </button>
        {hasBarcodeDetector() && (
          <button type="button" class="icon" aria-label={t('camera')} onClick={() => setCamera(true)}>
            📷
          </button>
        )}
      </div>
      {camera && (
        <Camera
          onCode={(code) => {
            setCamera(false);
            submit(code);
          }}
          onClose={() => setCamera(false)}
        />
      )}
    </div>
  );
};
