/// <reference lib="webworker" />
/**
 * The service worker: keeps the app shell (the page, its script and styles, the manifest, the
 * icon, the runtime configuration) so the app starts without a network. The API and Cognito
 * are never answered from the cache: a scan that cannot reach the service is kept by the app
 * (IndexedDB), not by the worker.
 */
declare const __SHELL__: string[];
declare const __VERSION__: string;
declare const self: ServiceWorkerGlobalScope;

const CACHE = `cargo-shell-${__VERSION__}`;

self.addEventListener('install', (event) => {
  event.waitUntil(
    caches
      .open(CACHE)
      .then((cache) => cache.addAll(__SHELL__))
      .then(() => self.skipWaiting()),
  );
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((names) =>
        Promise.all(names.filter((n) => n.startsWith('cargo-shell-') && n !== CACHE).map((n) => caches.delete(n))),
      )
      .then(() => self.clients.claim()),
  );
});

self.addEventListener('fetch', (event) => {
  const url = new URL(event.request.url);
  if (event.request.method !== 'GET' || url.origin !== self.location.origin || url.pathname.startsWith('/v1/')) return;
  const shellPath = event.request.mode === 'navigate' ? '/' : url.pathname;
  if (!__SHELL__.includes(shellPath)) return;
  // Network first for what a deployment changes (the page, the configuration), cache first for hashed assets.
  const fresh = shellPath === '/' || shellPath === '/index.html' || shellPath === '/config.json';
  event.respondWith(
    (async () => {
      const cache = await caches.open(CACHE);
      if (!fresh) return (await cache.match(shellPath)) ?? fetch(event.request);
      try {
        const res = await fetch(event.request);
        if (res.ok) await cache.put(shellPath, res.clone());
        return res;
      } catch {
        return (await cache.match(shellPath)) ?? Response.error();
      }
    })(),
  );
});
