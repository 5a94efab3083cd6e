import { useRef, useState } from 'preact/hooks';
import { createKeyKeeper, withRetries, type Outcome } from './api.ts';
import type { ErrorBody } from './api-types.ts';
import { useApp, type Notice } from './context.ts';
import type { Key } from './i18n.ts';

/** Where a write stands while it waits for the service: sent, or sent again after no answer. */
export type Pending = 'saving' | 'retrying';

/**
 * A screen's writes to the service. `write(name, send)` sends under one Idempotency-Key (kept
 * for the same `name` until the service answers, so saving again after no network is the same
 * request) and again while there is no answer, and resolves to the service's answer when it
 * accepted the write. Otherwise it has told the operator: not saved when no answer came at all,
 * else the refusal with what to do, which `onRefused` then gets for the screen to go back a step
 * (and may answer with the screen's own words for it, told instead of the service's).
 * `again` says how the operator sends it again after no answer (the same request, never twice).
 * `pending` says the write is under way (the screen disables what would start another).
 */
export const useWrite = (again: Key = 'tapAgain') => {
  const app = useApp();
  const keys = useRef(createKeyKeeper()).current;
  const [pending, setPending] = useState<Pending | undefined>();

  const write = async <T,>(
    name: unknown,
    send: (key: string) => Promise<Outcome<T>>,
    onRefused?: (error: ErrorBody) => void | Promise<Notice | undefined>,
  ): Promise<T | undefined> => {
    const key = keys.keyFor(name);
    setPending('saving');
    // The banner no longer shows the last answer (a refusal in red) while this one is awaited.
    app.notify({ tone: 'info', text: app.t('saving') });
    const outcome = await withRetries(() => send(key), { onRetry: () => setPending('retrying') });
    setPending(undefined);
    if (!outcome.ok && 'offline' in outcome) {
      app.notify({ tone: 'error', text: app.t('notSaved'), detail: app.t(again), code: 'NETWORK' });
      return undefined;
    }
    keys.settle();
    if (!outcome.ok) {
      const own = await onRefused?.(outcome.error);
      if (own === undefined) app.refused(outcome);
      else app.notify(own);
      return undefined;
    }
    return outcome.data;
  };

  return { pending, write };
};

/** What the operator reads while a save waits for the service. */
export const PendingStatus = ({ pending }: { pending: Pending | undefined }) => {
  const { t } = useApp();
  if (pending === undefined) return null;
  return (
    <p class="saving" role="status">
      {t(pending)}
    </p>
  );
};
