import { useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks';

/** A confirmation ignores taps this long after it appears: the second tap of a double tap lands in it. */
export const CONFIRM_AFTER_MS = 600;
/** A button that turned into another (Close → Reopen), or a step's button just shown, ignores taps this long. */
export const SETTLE_MS = 1000;
/** A confirmation not tapped within this long goes back to the first step. */
export const ARMED_MS = 5000;

/**
 * When the last tap anywhere on the page came: a step's button that appears settles for what is
 * left of SETTLE_MS since that tap, so the second tap of a double tap is ignored there while a
 * button shown by a scan (no finger on the screen) takes its first tap at once.
 */
let lastTapAt = Number.NEGATIVE_INFINITY;
if (typeof document !== 'undefined')
  for (const type of ['pointerdown', 'click'])
    document.addEventListener(type, () => (lastTapAt = performance.now()), { capture: true, passive: true });

/**
 * Taps ignored until a moment: `lock(ms)` ignores every tap for `ms` from now (kept in a ref, so
 * a tap that arrives before the screen re-rendered is ignored too) and shows the button disabled
 * meanwhile, so the operator sees it is not ready.
 */
const useTapLock = () => {
  const until = useRef(0);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const [locked, setLocked] = useState(false);
  useEffect(() => () => clearTimeout(timer.current), []);
  const lock = (ms: number) => {
    until.current = performance.now() + ms;
    clearTimeout(timer.current);
    setLocked(true);
    timer.current = setTimeout(() => setLocked(false), ms);
  };
  return { locked, lock, isLocked: () => performance.now() < until.current };
};

export interface GuardedButtonProps {
  /** What the button does; when it changes (Close → Reopen) the button ignores taps for SETTLE_MS. */
  readonly label: string;
  readonly onTap: () => void;
  /** The words of the confirmation; without them (or with `confirm` false) a tap does it at once. */
  readonly confirmLabel?: string;
  /** Whether this tap needs the confirmation now (sign-out: only with scans waiting). @default true */
  readonly confirm?: boolean;
  /** Told when the first tap asked for the confirmation (to say why it is asked). */
  readonly onArm?: () => void;
  /** Ignores taps for what is left of SETTLE_MS since the page's last tap when it appears (a step's button under the finger). */
  readonly settleOnMount?: boolean;
  readonly disabled?: boolean;
  readonly class?: string;
}

/**
 * The one button for everything a double tap must not do twice. A tap that needs confirming
 * turns the button into its confirmation, which ignores taps for CONFIRM_AFTER_MS (a double tap
 * 250 ms apart asks, and does nothing), and goes back after ARMED_MS untapped; a button whose
 * action changes under the finger (Close → Reopen) ignores taps for SETTLE_MS, and so does one
 * that has just acted (its answer is still on the way).
 */
export const GuardedButton = ({
  label,
  onTap,
  confirmLabel,
  confirm = true,
  onArm,
  settleOnMount = false,
  disabled = false,
  class: className,
}: GuardedButtonProps) => {
  const { locked, lock, isLocked } = useTapLock();
  const [armed, setArmed] = useState(false);
  const mounted = useRef(false);
  const asks = confirm && confirmLabel !== undefined;

  useLayoutEffect(() => {
    const first = !mounted.current;
    mounted.current = true;
    if (first && !settleOnMount) return;
    setArmed(false);
    const left = first ? SETTLE_MS - (performance.now() - lastTapAt) : SETTLE_MS;
    if (left > 0) lock(left);
  }, [label]);
  useEffect(() => {
    if (!armed) return;
    const timer = setTimeout(() => setArmed(false), ARMED_MS);
    return () => clearTimeout(timer);
  }, [armed]);
  useEffect(() => {
    if (!asks) setArmed(false);
  }, [asks]);

  const tap = () => {
    if (isLocked()) return;
    if (asks && !armed) {
      setArmed(true);
      lock(CONFIRM_AFTER_MS);
      return onArm?.();
    }
    setArmed(false);
    lock(SETTLE_MS);
    onTap();
  };

  return (
    <button type="button" class={className} disabled={disabled || locked} onClick={tap}>
      {armed && asks ? confirmLabel : label}
    </button>
  );
};
