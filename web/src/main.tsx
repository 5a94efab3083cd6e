import { render } from 'preact';
import { createApi } from './api.ts';
import { App } from './app.tsx';
import { createAuth } from './auth.ts';
import { createServiceClock } from './clock.ts';
import { loadConfig, scanRulesOf } from './config.ts';
import { deviceId } from './device.ts';
import { deviceLang, type Lang } from './i18n.ts';
import { openScanStore } from './queue.ts';
import { openRegister } from './register.ts';
import './style.css';

/** Boots the app: configuration (kept by the service worker for offline starts), session, scan store. */
const boot = async () => {
  const root = document.getElementById('app') as HTMLElement;
  let lang: Lang = deviceLang(navigator.language, localStorage.getItem('cargo.lang'));
  // The scan store and the location register open while the configuration arrives: none waits for another.
  const [config, store, register] = await Promise.all([loadConfig(), openScanStore(indexedDB), openRegister()]);
  const auth = createAuth({ config, storage: localStorage });
  const clock = createServiceClock({ storage: localStorage });
  const api = createApi({ auth, lang: () => lang, clock, servicePrefix: config.service_prefix });
  // The API's Accept-Language follows the language chosen in the app.
  const onLang = (next: Lang) => {
    lang = next;
  };
  // The page's "Cargo…" placeholder goes: render adds to what the element holds, it replaces nothing.
  root.replaceChildren();
  render(
    <App
      api={api}
      auth={auth}
      clock={clock}
      store={store}
      register={register}
      deviceId={deviceId(localStorage)}
      initialLang={lang}
      ssccEnabled={config.sscc_enabled === true}
      rules={scanRulesOf(config)}
      onLang={onLang}
    />,
    root,
  );
  // The service worker (which downloads the whole shell to keep it offline) registers once the
  // first screen is painted, not while the slow handheld is still drawing it.
  if ('serviceWorker' in navigator)
    requestAnimationFrame(() =>
      setTimeout(() => void navigator.serviceWorker.register('/sw.js').catch(() => undefined), 0),
    );
};

void boot();
