import { useEffect } from 'preact/hooks';
import type { RegisteredLocation } from '../api-types.ts';
import { Code } from '../code.tsx';
import { useApp, type AppState } from '../context.ts';
import { headlineFor, instructionFor, messageFor, translate, type RefusalCode } from '../i18n.ts';
import { refusalAtScan } from '../refused-scan.ts';
import type { QueueCounts, QueuedScan } from '../queue.ts';
import { classifyScan, isLocationCode } from '../register.ts';
import { normaliseCode } from '../../../lib/contract/scanned-codes.ts';
import { ScanField } from '../scan-field.tsx';
import { useSessionState } from '../session-state.ts';
import { chosenNow, refuted, type CurrentLocation } from './current-location.ts';
import { LocationContentPanel } from './location-content.tsx';
import { useLatestLoads } from '../latest.ts';

/** Why a scan was refused, in words for the operator, and what to do. */
const RefusalReason = ({ error }: { error: QueuedScan['error'] }) => {
  const { lang } = useApp();
  const code = error?.error_code ?? 'INTERNAL_ERROR';
  return (
    <>
      <span class="reason">{error === undefined ? headlineFor(lang, code) : messageFor(lang, error)}</span>
      <span class="todo">{instructionFor(lang, code)}</span>
    </>
  );
};

/** A refusal made on the device, at the scan: said as the service's are, in the operator's words. */
const refuseAtScan = (app: AppState, errorCode: RefusalCode, what?: string) =>
  app.notify(refusalAtScan(app.lang, errorCode, what));

/** A registered location's kind and zone, as the operator reads them. */
const placeOf = (app: AppState, location: RegisteredLocation): string =>
  [
    app.t(`kind${location.kind}`),
    ...(location.zone === null ? [] : [app.t('zone', { zone: location.zone })]),
    ...(location.description === null ? [] : [location.description]),
  ].join(' · ');

/**
 * Locate: scan a location, then any number of cargo. Each scan is kept on the device before it
 * is answered, then uploaded (at once when online, as a backlog when the network is back). The
 * operator sees how many wait and every scan the service refused, with the reason, and can ask
 * what is at the location now. The device's copy of the location register tells a location from
 * cargo at the scan, also offline: a registered location scanned at any time becomes the current
 * one (its own tone), a blocked one is refused, and what is neither a registered location nor a
 * box or zongpai number is refused at once, never queued. A location the service refuses a scan
 * made there for (a box label taken for it offline, blocked, not registered) is let go, whatever
 * screen is open when the refusal comes: the operator is asked for a location, and no later scan
 * is queued there.
 */
export const LocateScreen = ({ queue }: { queue: QueueCounts }) => {
  const app = useApp();
  const { t } = app;
  // The operator's own: the next one signed in on the device starts with no location, on shelf.
  // Kept with when it was chosen (a key of its own: a tab's location kept before had no time).
  const [chosen, setChosen] = useSessionState<CurrentLocation | undefined>(`cargo.place.${app.user ?? ''}`, undefined);
  const setLocation = (code: string | undefined) => setChosen(code === undefined ? undefined : chosenNow(code));
  // Let go once a scan made there is refused for the location (the refused scans stay listed).
  const letGo = chosen !== undefined && refuted(chosen, queue.refused);
  useEffect(() => {
    if (letGo) setChosen((current) => (current !== undefined && refuted(current, queue.refused) ? undefined : current));
  }, [letGo]);
  const location = letGo ? undefined : chosen?.code;
  const [offShelf, setOffShelf] = useSessionState(`cargo.offShelf.${app.user ?? ''}`, false);

  /**
   * An unregistered location's code checked by the service as soon as it is scanned, while
   * online: a code the service refuses as a location, or one that is a box (of the ERP plan or
   * saved) or a registered zongpai, is told with the error tone and asked for again (a box or
   * zongpai is remembered as cargo, so it is refused at once next time, offline too). A cargo
   * scanned before the answer, or offline, is queued under it, and its refusal is told as loud
   * when the upload answers.
   */
  const checkLocation = async (code: string) => {
    if (!navigator.onLine) return;
    const { api } = app;
    const cargo = classifyScan({ lookup: () => undefined }, code, app.rules).kind === 'cargo';
    const [here, box, zongpai] = await Promise.all([
      api.run(
        api.client.GET('/v1/cargo/locations/{location_code}/cargo', {
          params: { path: { location_code: code }, query: { limit: 1 } },
        }),
      ),
      cargo ? api.run(api.client.GET('/v1/box/info', { params: { query: { box_no: code } } })) : undefined,
      cargo
        ? api.run(
            api.client.GET('/v1/zongpai/{zongpai_no}/packing-list', {
              params: { path: { zongpai_no: code }, query: { limit: 1 } },
            }),
          )
        : undefined,
    ]);
    const drop = () => setChosen((current) => (current?.code === code ? undefined : current));
    if (box?.ok === true || zongpai?.ok === true) {
      drop();
      app.register.rememberCargo([code]);
      return refuseAtScan(app, 'LOCATION_IS_CARGO');
    }
    if (here.ok || 'offline' in here || here.error.error_code !== 'INVALID_LOCATION_CODE') return;
    drop();
    app.refused(here);
  };

  const registered = location === undefined ? undefined : app.register.lookup(location);

  /**
   * A scan's "queued" comes once its storage commits, and only while no later scan was made: the
   * banner always answers the last scan (a quick second scan refused at once is not covered).
   */
  const loads = useLatestLoads();

  const onScan = async (raw: string) => {
    loads.drop();
    const scanned = classifyScan(app.register, raw, app.rules);
    if (scanned.kind === 'location') {
      const place = scanned.location;
      if (place.blocked) return refuseAtScan(app, 'LOCATION_BLOCKED', placeOf(app, place));
      setLocation(place.location_code);
      return app.notify({
        tone: 'place',
        text: t('locationSwitched', { location: place.location_code }),
        detail: placeOf(app, place),
        code: 'LOCATION',
      });
    }
    if (location === undefined) {
      const code = normaliseCode(raw);
      if (!isLocationCode(code, app.rules)) return refuseAtScan(app, 'INVALID_LOCATION_CODE');
      // A box or zongpai label the device has seen as cargo: not a location, refused at once, offline too.
      if (app.register.isKnownCargo(code)) return refuseAtScan(app, 'LOCATION_IS_CARGO');
      setLocation(code);
      app.notify({ tone: 'ok', text: `${t('location')} ${code}`, detail: t('unregistered') });
      return checkLocation(code);
    }
    if (scanned.kind === 'invalid')
      return refuseAtScan(app, 'INVALID_BOX_NO', translate(app.lang, 'scanRefused', { cargo: scanned.code, location }));
    const code = scanned.code;
    // Kept with who scanned it: it is uploaded only under their name.
    const user = app.auth.session()?.user ?? app.user;
    // Off shelf is sent only when switched on: left out, a registered location's own is stored
    // (a dock is off the shelf without the switch), and false where the location is not registered.
    const scan = {
      cargo_no: code,
      location_code: location,
      // The switch is the operator's only at an unregistered location: a registered one says its own.
      ...(offShelf && registered === undefined ? { off_shelf: true } : {}),
      scanned_at: new Date(app.clock.now()).toISOString(),
      device_id: app.deviceId,
    };
    let kept: QueuedScan | undefined;
    try {
      kept = await loads.latest(app.store.add(scan, crypto.randomUUID(), user));
    } catch {
      return app.notify({ tone: 'error', text: 'IndexedDB', detail: instructionFor(app.lang, 'INTERNAL_ERROR') });
    }
    app.register.rememberCargo([code]);
    if (kept !== undefined) app.notify({ tone: 'ok', text: t('queued', { cargo: code.toUpperCase(), location }) });
    app.upload();
  };

  return (
    <section class="screen" aria-label={t('locate')}>
      <ScanField
        label={location === undefined ? t('scanLocation') : t('scanCargo')}
        onScan={(code) => void onScan(code)}
      />
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
                <b>
                  <Code code={q.scan.cargo_no} />
                </b>{' '}
                @ <Code code={q.scan.location_code} />
                <RefusalReason error={q.error} />
                <button type="button" onClick={() => void app.store.remove([q.key]).then(app.upload)}>
                  {t('dismiss')}
                </button>
              </li>
            ))}
          </ul>
        </div>
      )}
      <div class="action-bar" data-testid="main-action">
        {location !== undefined && (
          <button type="button" class="place" data-testid="location" onClick={() => setLocation(undefined)}>
            <Code code={location} /> ✎
            <small data-testid="location-kind">
              {registered === undefined ? t('unregistered') : placeOf(app, registered)}
            </small>
          </button>
        )}
        {registered === undefined && (
          <label class="toggle">
            <input type="checkbox" checked={offShelf} onChange={(e) => setOffShelf(e.currentTarget.checked)} />{' '}
            {t('offShelf')}
          </label>
        )}
      </div>
    </section>
  );
};
