import { useApp } from '../context.ts';
import { instructionFor, messageFor } from '../i18n.ts';
import type { QueueCounts, QueuedScan } from '../queue.ts';
import { ScanField } from '../scan-field.tsx';
import { useSessionState } from '../session-state.ts';
import { LocationContentPanel } from './location-content.tsx';

/** Why a scan was refused, in words for the operator, and what to do (once, when they are the same words). */
const RefusalReason = ({ error }: { error: QueuedScan['error'] }) => {
  const { lang } = useApp();
  const reason = error === undefined ? undefined : messageFor(lang, error);
  const todo = instructionFor(lang, error?.error_code ?? 'INTERNAL_ERROR');
  return (
    <>
      {reason !== undefined && reason !== todo && <span class="reason">{reason}</span>}
      <span class="todo">{todo}</span>
    </>
  );
};

/**
 * Locate: scan a location, then any number of cargo. Each scan is kept on the device before it
 * is answered, then uploaded (at once when online, as a backlog when the network is back). The
 * operator sees how many wait and every scan the service refused, with the reason, and can ask
 * what is at the location now.
 */
export const LocateScreen = ({ queue }: { queue: QueueCounts }) => {
  const app = useApp();
  const { t } = app;
  // The operator's own: the next one signed in on the device starts with no location, on shelf.
  const [location, setLocation] = useSessionState<string | undefined>(`cargo.location.${app.user ?? ''}`, undefined);
  const [offShelf, setOffShelf] = useSessionState(`cargo.offShelf.${app.user ?? ''}`, false);

  /**
   * The location's code checked by the service as soon as it is scanned, while online (the rule
   * is the deployment's setting, which the app does not have): a refused one is told with the
   * error tone and asked for again. A cargo scanned before the answer, or offline, is queued
   * under it, and its refusal is told as loud when the upload answers.
   */
  const checkLocation = async (code: string) => {
    if (!navigator.onLine) return;
    const outcome = await app.api.run(
      app.api.client.GET('/v1/cargo/locations/{location_code}/cargo', {
        params: { path: { location_code: code }, query: { limit: 1 } },
      }),
    );
    if (outcome.ok || 'offline' in outcome || outcome.error.error_code !== 'INVALID_LOCATION_CODE') return;
    setLocation((current) => (current === code ? undefined : current));
    app.refused(outcome);
  };

  const onScan = async (code: string) => {
    if (location === undefined) {
      setLocation(code.toUpperCase());
      app.notify({ tone: 'ok', text: `${t('location')} ${code.toUpperCase()}` });
      return checkLocation(code.toUpperCase());
    }
    // Kept with who scanned it: it is uploaded only under their name.
    const user = app.auth.session()?.user ?? app.user;
    // Off shelf is sent only when switched on: left out, a registered location's own is stored
    // (a dock is off the shelf without the switch), and false where the location is not registered.
    const scan = {
      cargo_no: code,
      location_code: location,
      ...(offShelf ? { off_shelf: true } : {}),
      scanned_at: new Date(app.clock.now()).toISOString(),
      device_id: app.deviceId,
    };
    try {
      await app.store.add(scan, crypto.randomUUID(), user);
    } catch {
      return app.notify({ tone: 'error', text: 'IndexedDB', detail: instructionFor(app.lang, 'INTERNAL_ERROR') });
    }
    app.notify({ tone: 'ok', text: t('queued', { cargo: code.toUpperCase(), location }) });
    app.upload();
  };

  return (
    <section class="screen" aria-label={t('locate')}>
      <ScanField
        label={location === undefined ? t('scanLocation') : t('scanCargo')}
        onScan={(code) => void onScan(code)}
      />
      <div class="actions">
        {location !== undefined && (
          <button type="button" data-testid="location" onClick={() => setLocation(undefined)}>
            {t('location')}: {location} ✎
          </button>
        )}
        <label class="toggle">
          <input type="checkbox" checked={offShelf} onChange={(e) => setOffShelf(e.currentTarget.checked)} />{' '}
          {t('offShelf')}
        </label>
      </div>
      {location !== undefined && <LocationContentPanel key={location} location={location} />}
      <p class="queue" data-testid="waiting" data-waiting={queue.waiting} data-others={queue.others} role="status">
        {queue.waiting === 0 ? t('allUploaded') : t('waiting', { n: queue.waiting })}
        {queue.others > 0 && <small> {t('waitingOthers', { n: queue.others })}</small>}
      </p>
      {queue.refused.length > 0 && (
        <div class="refused">
          <h2>{t('refusedScans')}</h2>
          <ul>
            {queue.refused.map((q) => (
              <li key={q.key} data-testid="refused-scan">
                <b>{q.scan.cargo_no}</b> @ {q.scan.location_code}
                <RefusalReason error={q.error} />
                <button type="button" onClick={() => void app.store.remove([q.key]).then(app.upload)}>
                  {t('dismiss')}
                </button>
              </li>
            ))}
          </ul>
        </div>
      )}
    </section>
  );
};
