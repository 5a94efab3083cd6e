import { buildSync, type BuildOptions } from 'esbuild';
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Builds the handheld app with esbuild: the Preact app bundled and minified into content-hashed
 * scripts (the app; what it loads on first use, printing; a chunk the two share, which the page
 * preloads) and one style sheet, the page that loads them, the web app manifest, the
 * icon and the service worker that caches exactly these files (the app shell). The same build
 * is served by `npm start` (local/web.ts) and uploaded by the stack (infra/constructs/web-app.ts).
 * The runtime configuration (`config.json`) is not part of it: each place that serves the app
 * writes its own.
 *
 * @example
 * ```ts
 * for (const file of buildWebApp()) console.log(file.path, file.body.length);
 * ```
 */
export interface WebFile {
  /** Path under the site root, e.g. `/app-4F2KQ.js`. */
  readonly path: string;
  readonly body: Buffer;
  readonly contentType: string;
  /** Content-hashed: may be cached for good. */
  readonly immutable: boolean;
}

const WEB = dirname(fileURLToPath(import.meta.url));

const page = (script: string, style: string, preload: readonly string[]) => `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1, viewport-fit=cover">
<meta name="theme-color" content="#0b3d91">
<title>Cargo</title>
<link rel="manifest" href="/manifest.webmanifest">
<link rel="icon" href="/icon.svg" type="image/svg+xml">
<link rel="stylesheet" href="${style}">
<link rel="preload" href="/config.json" as="fetch" crossorigin>
${preload.map((chunk) => `<link rel="modulepreload" href="${chunk}">\n`).join('')}<script type="module" src="${script}"></script>
</head>
<body>
<div id="app"><p class="boot">Cargo…</p></div>
</body>
</html>
`;

const manifest = {
  name: 'Cargo handheld',
  short_name: 'Cargo',
  start_url: '/',
  scope: '/',
  display: 'standalone',
  orientation: 'portrait',
  background_color: '#ffffff',
  theme_color: '#0b3d91',
  icons: [{ src: '/icon.svg', sizes: 'any', type: 'image/svg+xml', purpose: 'any' }],
};

const file = (path: string, body: string | Uint8Array, contentType: string, immutable = false): WebFile => ({
  path,
  body: Buffer.from(body),
  contentType,
  immutable,
});

/** Both bundles, the app and its service worker: minified for the handheld's Chromium, kept in memory. */
const bundle = {
  bundle: true,
  minify: true,
  target: ['chrome80'],
  write: false,
  logLevel: 'silent',
} satisfies BuildOptions;

/** Builds the app in memory. */
export const buildWebApp = (): WebFile[] => {
  const app = buildSync({
    ...bundle,
    entryPoints: [join(WEB, 'src/main.tsx')],
    format: 'esm',
    jsx: 'automatic',
    jsxImportSource: 'preact',
    entryNames: 'app-[hash]',
    // What only some screens need (printing) is its own chunk, loaded by a dynamic import when
    // first used; what both need is a shared chunk the page preloads beside the app's script.
    splitting: true,
    chunkNames: 'chunk-[hash]',
    metafile: true,
    outdir: '/out',
    legalComments: 'none',
    // Chromium's explicit compile hint: every function of the app is compiled while the script
    // loads (off the main thread, with the streamed script), not lazily at its first call; the
    // first scan of a screen otherwise compiled the API call, the refusal and the banner's render
    // on the throttled main thread between the Enter and the feedback.
    banner: { js: '//# allFunctionsCalledOnLoad' },
  });
  const assets = app.outputFiles.map((out) => {
    const name = `/${out.path.split('/').pop() as string}`;
    return file(
      name,
      out.contents,
      name.endsWith('.css') ? 'text/css; charset=utf-8' : 'text/javascript; charset=utf-8',
      true,
    );
  });
  const [entry, meta] = Object.entries(app.metafile.outputs).find(([, out]) => out.entryPoint !== undefined) ?? [];
  const script = `/${(entry ?? '').split('/').pop() as string}`;
  const style = assets.find((a) => a.path.endsWith('.css'))?.path as string;
  const preload = (meta?.imports ?? [])
    .filter((i) => i.kind === 'import-statement')
    .map((i) => `/${i.path.split('/').pop() as string}`);
  const shell = [
    file('/index.html', page(script, style, preload), 'text/html; charset=utf-8'),
    file('/manifest.webmanifest', JSON.stringify(manifest), 'application/manifest+json'),
    file('/icon.svg', readFileSync(join(WEB, 'src/icon.svg')), 'image/svg+xml'),
    ...assets,
  ];
  const version = createHash('sha256');
  for (const f of shell) version.update(f.path).update(f.body);
  const worker = buildSync({
    ...bundle,
    entryPoints: [join(WEB, 'src/sw.ts')],
    format: 'iife',
    define: {
      __SHELL__: JSON.stringify(['/', ...shell.map((f) => f.path), '/config.json']),
      __VERSION__: JSON.stringify(version.digest('hex').slice(0, 12)),
    },
  });
  return [...shell, file('/sw.js', worker.outputFiles[0]?.contents ?? '', 'text/javascript; charset=utf-8')];
};

/** Writes the build to a folder (the stack's asset bundling). */
export const writeWebApp = (outdir: string, files: readonly WebFile[] = buildWebApp()): void => {
  for (const f of files) {
    const target = join(outdir, f.path === '/' ? 'index.html' : f.path.slice(1));
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, f.body);
  }
};

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  const outdir = process.argv[2] ?? join(WEB, 'dist');
  writeWebApp(outdir);
  process.stdout.write(`web app built into ${outdir}\n`);
}
