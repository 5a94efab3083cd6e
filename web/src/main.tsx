import { render } from 'preact';
import { createApi } from './api.ts';
import { App } from './app.tsx';
import { createAuth } from './auth.ts';
import { loadConfig, type RuntimeConfig } from './config.ts';
import { deviceId } from './device.ts';
import { deviceLang, type Lang } from './i18n.ts';
import { openScanStore } from './queue.ts';
import './style.css';

/** Boots the app: configuration (kept by the service worker for offline starts), session, scan store. */
const boot = async () => {
  const root = document.getElementById('app') as HTMLElement;
  let lang: Lang = deviceLang(navigator.language, localStorage.getItem('cargo.lang'));
  const config: RuntimeConfig = await loadConfig();
  const auth = createAuth({ config, storage: localStorage });
  const api = createApi({ auth, lang: () => lang });
  const store = await openScanStore(indexedDB);
  // The API's Accept-Language follows the language chosen in the app.
  const onLang = (next: Lang) => {
    lang = next;
  };
  // The page's "Cargo…" placeholder goes: render adds to what the element holds, it replaces nothing.
  root.replaceChildren();
  render(
    <App api={api} auth={auth} store={store} deviceId={deviceId(localStorage)} initialLang={lang} onLang={onLang} />,
    root,
  );
  if ('serviceWorker' in navigator) void navigator.serviceWorker.register('/sw.js').catch(() => undefined);
};

void boot();
