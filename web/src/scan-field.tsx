import { useLayoutEffect, useRef, useState } from 'preact/hooks';
import { useApp } from './context.ts';
import { Camera, hasBarcodeDetector } from './camera.tsx';

/**
 * The field every scan arrives in. A keyboard-wedge scanner types its characters into the
 * focused element a few ms apart and ends with Enter; the field keeps the focus (taken back
 * whenever it drifts to anything but a text field), so the next scan lands here whatever the
 * operator touched. When a text field (a quantity) has the focus, a person types into it at
 * human speed, and a wedge burst is told apart by its timing: its first character is taken back
 * out of that field, the rest and the Enter land here. Typing is the fallback (the keyboard
 * button shows the soft keyboard), and the camera reads barcodes where the browser has
 * BarcodeDetector. What arrives is passed on as scanned (item codes and order numbers keep their
 * case, as the service matches them exactly); each screen upper-cases the codes the service does.
 */
export interface ScanFieldProps {
  readonly label: string;
  readonly onScan: (code: string) => void;
  readonly name?: string;
  /**
   * A save is under way (true), or what the next scan depends on is loading ('loading', a box's
   * plan): a scan now is refused with the error tone and asked for again, not dropped or misread
   * (the field stays enabled so the burst cannot land on the page or a control).
   */
  readonly busy?: boolean | 'loading';
}

/**
 * A wedge types a scan's characters 1-20 ms apart; a person tapping a handheld's keys, 100 ms and
 * more. The line sits between them with room on both sides: a busy handheld delivers a wedge's
 * keys late now and then, and only the gap after a burst's first key decides.
 */
export const BURST_GAP_MS = 75;

const NOT_TEXT = new Set(['checkbox', 'radio', 'button', 'submit', 'reset', 'range', 'color', 'file', 'image']);

/** A field a person types into (a quantity, a zongpai number); a toggle or a button is not one. */
const isTextField = (element: Element | null): element is HTMLInputElement | HTMLTextAreaElement =>
  element instanceof HTMLTextAreaElement || (element instanceof HTMLInputElement && !NOT_TEXT.has(element.type));

/**
 * Sends every wedge burst to `field`, whatever has the focus: a key typed outside a text field
 * moves the focus here first; a key typed into a text field under BURST_GAP_MS after the one
 * before starts a burst, so that one's character is taken back out of the text field (its value
 * restored, the screen told with an `input` event) and put here. Returns the listener's removal.
 */
const routeBursts = (field: HTMLInputElement): (() => void) => {
  let last: { at: number; target: HTMLInputElement | HTMLTextAreaElement; before: string; key: string } | undefined;
  const onKey = (event: KeyboardEvent) => {
    const active = document.activeElement;
    if (active === field || event.ctrlKey || event.altKey || event.metaKey) return void (last = undefined);
    const printable = event.key.length === 1;
    if (!isTextField(active)) {
      if (printable) field.focus({ preventScroll: true });
      return void (last = undefined);
    }
    if (!printable) return void (last = undefined);
    if (last !== undefined && last.target === active && event.timeStamp - last.at < BURST_GAP_MS) {
      active.value = last.before;
      active.dispatchEvent(new Event('input', { bubbles: true }));
      field.value = last.key;
      field.focus({ preventScroll: true });
      return void (last = undefined);
    }
    last = { at: event.timeStamp, target: active, before: active.value, key: event.key };
  };
  document.addEventListener('keydown', onKey, true);
  return () => document.removeEventListener('keydown', onKey, true);
};

export const ScanField = ({ label, onScan, name = 'scan', busy = false }: ScanFieldProps) => {
  const { t, notify } = useApp();
  const input = useRef<HTMLInputElement>(null);
  const [typing, setTyping] = useState(false);
  const [camera, setCamera] = useState(false);

  // In the commit that puts the field in the page, not after the next paint: a scan fired the
  // moment a screen appears would otherwise land on the page (the tab tapped, or the field of
  // the screen just left) and lose its first characters.
  useLayoutEffect(() => {
    const field = input.current;
    if (field === null) return;
    // Text fields the operator types into keep their focus; anything else gives it back.
    const refocus = () =>
      setTimeout(() => {
        if (!isTextField(document.activeElement)) field.focus({ preventScroll: true });
      }, 0);
    field.focus({ preventScroll: true });
    field.addEventListener('blur', refocus);
    document.addEventListener('click', refocus);
    const unroute = routeBursts(field);
    return () => {
      field.removeEventListener('blur', refocus);
      document.removeEventListener('click', refocus);
      unroute();
    };
  }, [label]);

  const submit = (code: string) => {
    const trimmed = code.trim();
    if (trimmed === '') return;
    performance.mark('scan-enter');
    if (busy !== false)
      return notify({
        tone: 'error',
        text: t(busy === 'loading' ? 'scanNotTakenLoading' : 'scanNotTaken', { code: trimmed }),
        detail: t(busy === 'loading' ? 'scanAgainWhenLoaded' : 'scanAgainWhenSaved'),
        code: 'BUSY',
      });
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
          autocapitalize="none"
          spellcheck={false}
          enterkeyhint="done"
          inputMode={typing ? 'text' : 'none'}
          aria-busy={busy !== false}
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
          aria-label={t('keyboard')}
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
