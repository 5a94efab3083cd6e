import { useCallback, useEffect, useMemo, useRef, useState } from 'preact/hooks';
import type { Api } from './api.ts';
import type { Auth } from './auth.ts';
import type { ServiceClock } from './clock.ts';
import { DEFAULT_SCAN_RULES, type ScanRules } from './config.ts';
import { Code } from './code.tsx';
import { AppContext, type AppState, type Notice } from './context.ts';
import { primeAudio, signal } from './feedback.ts';
import { GuardedButton } from './guard.tsx';
import { headlineFor, instructionFor, setInterfaceLang, translate, type Key, type Lang } from './i18n.ts';
import type { QueueCounts, ScanStore } from './queue.ts';
import { createUploader, ownedBy } from './queue.ts';
import { refusedScanNotice } from './refused-scan.ts';
import { REGISTER_REFRESH_MS, type LocationRegister } from './register.ts';
import { BoxScreen } from './screens/box.tsx';
import { FindScreen } from './screens/find.tsx';
import { LocateScreen } from './screens/locate.tsx';
import { OneScanScreen } from './screens/one-scan.tsx';
import { OrderScreen } from './screens/order.tsx';
import { PalletScreen } from './screens/pallet.tsx';
import { SignInScreen } from './screens/sign-in.tsx';
import { SupervisorScreen } from './screens/supervisor.tsx';

/** The screens, in the order of the tab bar; the location hash names the open one (`#/box`). */
const SCREENS = ['box', 'oneScan', 'locate', 'find', 'pallet', 'order', 'supervisor'] as const satisfies readonly Key[];
type Screen = (typeof SCREENS)[number];

const screenOf = (hash: string): Screen => SCREENS.find((s) => `#/${s}` === hash) ?? 'box';

/** A box, zongpai or location code in an answer (`A-01-01`, `BOX-1003`): kept whole on one line. */
const CODE_IN_TEXT = /([A-Z0-9]+(?:-[A-Z0-9]+)+)/;
const withCodes = (text: string) =>
  text.split(CODE_IN_TEXT).map((part, i) => (i % 2 === 1 ? <Code key={i} code={part} /> : part));

/**
 * The banner at the top: the colour and words of the last answer. Its notice is its own state,
 * so a scan's answer renders the banner alone, not the whole app around it: the colour is on
 * screen first, and the screen's own changes follow.
 */
const Banner = ({
  show,
  requestIdLabel,
  detailsLabel,
}: {
  readonly show: { current: (notice: Notice | undefined) => void };
  readonly requestIdLabel: string;
  readonly detailsLabel: string;
}) => {
  const [notice, setNotice] = useState<Notice | undefined>();
  show.current = setNotice;

  // From the Enter of a scan to its feedback on screen (npm run budget:web reads it). A notice
  // that answers a tap, not a scan, has no mark and measures nothing.
  useEffect(() => {
    if (notice === undefined || notice.tone === 'info') return;
    if (performance.getEntriesByName('scan-enter', 'mark').length === 0) return;
    performance.measure('scan-feedback', { start: 'scan-enter' });
    performance.clearMarks('scan-enter');
  }, [notice]);

  return (
    <div
      class="notice"
      role="alert"
      data-testid="notice"
      data-tone={notice?.tone ?? 'none'}
      data-code={notice?.code ?? ''}
    >
      {notice !== undefined && (
        <>
          <p class="notice-text">{withCodes(notice.text)}</p>
          {notice.detail !== undefined && <p class="notice-detail">{notice.detail}</p>}
          {notice.serverMessage !== undefined && notice.serverMessage !== '' && (
            <details class="notice-more">
              <summary>{detailsLabel}</summary>
              <span data-testid="server-message">{notice.serverMessage}</span>
            </details>
          )}
          {notice.requestId !== undefined && (
            <small class="notice-id">
              {requestIdLabel} <span data-testid="request-id">{notice.requestId}</span>
            </small>
          )}
        </>
      )}
    </div>
  );
};

export interface AppProps {
  readonly api: Api;
  readonly auth: Auth;
  readonly clock: ServiceClock;
  readonly store: ScanStore;
  readonly register: LocationRegister;
  readonly deviceId: string;
  readonly initialLang: Lang;
  /** The service registers zongpais by SSCC (`config.json`). @default false */
  readonly ssccEnabled?: boolean;
  /** The deployment's code patterns and ENFORCE_ERP_PLAN (`config.json`). @default the service's defaults */
  readonly rules?: ScanRules;
  /** Told when the operator switches language (the API client's Accept-Language follows). */
  readonly onLang: (lang: Lang) => void;
}

export const App = ({
  api,
  auth,
  clock,
  store,
  register,
  deviceId,
  initialLang,
  ssccEnabled = false,
  rules = DEFAULT_SCAN_RULES,
  onLang,
}: AppProps) => {
  const [lang, setLang] = useState<Lang>(initialLang);
  // Dates and numbers are written in the interface's language, on every screen.
  setInterfaceLang(lang);
  /** Moves on each time the register's copy is fetched again: the screens read the new one. */
  const [, setRegisterFetched] = useState(register.fetchedAt());
  const [signedIn, setSignedIn] = useState(auth.session() !== undefined);
  /** Who signed in on this device, kept while a refused token refresh waits for them to sign in again. */
  const [user, setUser] = useState(auth.session()?.user);
  const [screen, setScreen] = useState<Screen>(screenOf(location.hash));
  const banner = useRef<(notice: Notice | undefined) => void>(() => undefined);
  const setNotice = (next: Notice | undefined) => banner.current(next);
  const [online, setOnline] = useState(navigator.onLine);
  const [queue, setQueue] = useState<QueueCounts>({ waiting: 0, others: 0, refused: [] });
  const langRef = useRef(lang);
  langRef.current = lang;
  const t = useCallback((key: Key, vars?: Record<string, string | number>) => translate(lang, key, vars), [lang]);

  const notify = useCallback((next: Notice) => {
    banner.current(next);
    if (next.tone !== 'info') signal(next.tone);
  }, []);

  const refreshQueue = useCallback(async () => {
    const all = await store.all();
    const user = auth.session()?.user;
    const pending = all.filter((q) => q.state === 'pending');
    setQueue({
      waiting: pending.filter((q) => ownedBy(q, user)).length,
      others: pending.filter((q) => !ownedBy(q, user)).length,
      refused: all.filter((q) => q.state === 'refused' && ownedBy(q, user)),
    });
  }, [store]);

  const uploader = useMemo(
    () =>
      createUploader({
        store,
        user: () => auth.session()?.user,
        upload: (records, key, owner) =>
          api.run(
            api.clientFor(owner).POST('/v1/cargo/location', {
              body: { records },
              params: { header: { 'Idempotency-Key': key } },
            }),
          ),
        onChange: () => void refreshQueue(),
        // A refused scan is told at once, loud, whatever screen is open: never only in the list.
        onRefused: (refused) => {
          const [first] = refused;
          if (first?.error !== undefined) notify(refusedScanNotice(langRef.current, first, refused.length));
        },
        // Scans the service found stamped too far ahead, sent again at its time: the device's clock is wrong.
        now: clock.now,
        onRestamped: () =>
          notify({
            tone: 'warn',
            text: translate(langRef.current, 'deviceClock'),
            detail: translate(langRef.current, 'scansRestamped'),
            code: 'DEVICE_CLOCK',
          }),
      }),
    [store, api],
  );
  /** The whole register fetched again, a page of 100 at a time; a failed fetch keeps the copy. */
  const refreshRegister = useCallback(
    (whenOlderThan = 0) => {
      if (auth.session() === undefined) return;
      const fetched = register.fetchedAt();
      if (fetched !== undefined && Date.now() - fetched < whenOlderThan) return;
      void register
        .refresh((cursor) =>
          api.run(
            api.client.GET('/v1/cargo/locations', {
              params: { query: { limit: 100, ...(cursor === undefined ? {} : { cursor }) } },
            }),
          ),
        )
        .then(() => setRegisterFetched(register.fetchedAt()));
    },
    [register, api],
  );

  useEffect(() => {
    const onOnline = () => {
      if (navigator.onLine) refreshRegister();
    };
    window.addEventListener('online', onOnline);
    const timer = setInterval(() => refreshRegister(), REGISTER_REFRESH_MS);
    // A reload keeps a copy fetched within the interval.
    refreshRegister(REGISTER_REFRESH_MS);
    return () => {
      window.removeEventListener('online', onOnline);
      clearInterval(timer);
    };
  }, [refreshRegister]);

  const upload = useCallback(() => {
    void refreshQueue();
    void uploader.flush().then((result) => {
      if (result === 'unauthorized' && auth.session() === undefined) setSignedIn(false);
    });
  }, [uploader]);

  useEffect(() => {
    document.addEventListener('pointerdown', primeAudio, { once: true, capture: true });
    document.addEventListener('keydown', primeAudio, { once: true, capture: true });
  }, []);

  useEffect(() => {
    const onHash = () => setScreen(screenOf(location.hash));
    const onOnline = () => {
      setOnline(navigator.onLine);
      if (navigator.onLine) upload();
    };
    window.addEventListener('hashchange', onHash);
    window.addEventListener('online', onOnline);
    window.addEventListener('offline', onOnline);
    // The network can come back without an event (a captive Wi-Fi): try now and then.
    const timer = setInterval(upload, 15_000);
    upload();
    return () => {
      window.removeEventListener('hashchange', onHash);
      window.removeEventListener('online', onOnline);
      window.removeEventListener('offline', onOnline);
      clearInterval(timer);
    };
  }, [upload]);

  useEffect(() => {
    document.documentElement.lang = lang === 'zh' ? 'zh-CN' : 'en';
    localStorage.setItem('cargo.lang', lang);
    onLang(lang);
  }, [lang]);

  const refused: AppState['refused'] = useCallback(
    (outcome) => {
      if ('offline' in outcome)
        return notify({ tone: 'error', text: translate(langRef.current, 'network'), code: 'NETWORK' });
      const { error } = outcome;
      if (error.error_code === 'UNAUTHORIZED' && auth.session() === undefined) setSignedIn(false);
      const detail = instructionFor(langRef.current, error.error_code);
      // What the operator reports (INTERNAL_ERROR's instruction, also an unknown code's) names the request.
      const report = detail === instructionFor(langRef.current, 'INTERNAL_ERROR') && error.request_id !== '';
      notify({
        tone: 'error',
        text: headlineFor(langRef.current, error.error_code),
        detail,
        serverMessage: error.message,
        code: error.error_code,
        ...(report ? { requestId: error.request_id } : {}),
      });
    },
    [notify],
  );

  const state: AppState = {
    api,
    auth,
    user,
    lang,
    ssccEnabled,
    rules,
    t,
    deviceId,
    clock,
    store,
    register,
    notify,
    clearNotice: () => setNotice(undefined),
    refused,
    upload,
  };
  const session = auth.session();
  return (
    <AppContext.Provider value={state}>
      <header class="bar">
        <span class="who">{signedIn && session !== undefined ? session.user : t('app')}</span>
        {!online && (
          <span class="offline" data-testid="offline">
            {t('offline')}
          </span>
        )}
        {queue.waiting > 0 && (
          <span class="badge" data-testid="badge">
            {queue.waiting}
          </span>
        )}
        <button type="button" class="lang" onClick={() => setLang(lang === 'en' ? 'zh' : 'en')}>
          {t('language')}
        </button>
        {signedIn && (
          <GuardedButton
            label={t('signOut')}
            confirmLabel={t('confirmSignOut')}
            // Scans still waiting upload only when their user signs in again: say so first.
            confirm={queue.waiting > 0}
            onArm={() => {
              notify({
                tone: 'warn',
                text: t('signOutWaiting', { n: queue.waiting }),
                detail: t('signOutWaitingDetail'),
              });
              upload();
            }}
            onTap={() => {
              void auth.signOut();
              setUser(undefined);
              setSignedIn(false);
              setNotice(undefined);
              void refreshQueue();
            }}
          />
        )}
      </header>
      <Banner show={banner} requestIdLabel={t('requestId')} detailsLabel={t('details')} />
      {!signedIn ? (
        <main>
          <SignInScreen
            onSignedIn={() => {
              setSignedIn(true);
              setUser(auth.session()?.user);
              setNotice(undefined);
              upload();
              refreshRegister();
            }}
          />
        </main>
      ) : (
        <>
          <main>
            {screen === 'box' && <BoxScreen />}
            {screen === 'oneScan' && <OneScanScreen />}
            {screen === 'locate' && <LocateScreen queue={queue} />}
            {screen === 'find' && <FindScreen />}
            {screen === 'pallet' && <PalletScreen />}
            {screen === 'order' && <OrderScreen />}
            {screen === 'supervisor' && <SupervisorScreen />}
          </main>
          <nav class="tabs">
            {SCREENS.filter((s) => s !== 'supervisor' || auth.isSupervisor()).map((s) => (
              <a
                key={s}
                href={`#/${s}`}
                aria-current={s === screen ? 'page' : undefined}
                onClick={() => setNotice(undefined)}
              >
                {t(s)}
              </a>
            ))}
          </nav>
        </>
      )}
    </AppContext.Provider>
  );
};
