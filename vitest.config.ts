import { existsSync } from 'node:fs';
import { defineConfig } from 'vitest/config';

/**
 * Three kinds of tests: unit tests of `lib`, infrastructure tests (CDK template, emulators), and
 * integration tests that go through the emulated API Gateway and Data API as a scanner would.
 * The integration suite runs over embedded PGlite always, and once more over PostgreSQL when
 * TEST_DATABASE_URL names a server (CI sets it). Its files share their worker's modules
 * (`isolate: false`): each file starts a service of its own from an environment object, and the
 * handler modules do nothing at import, so a worker loads them (and PGlite) once, not per file.
 */
/** The handheld app's browser tests need Debian's Chromium; CI (REQUIRE_E2E=1) fails without it. */
const chromium = existsSync(process.env.CHROMIUM_PATH ?? '/usr/bin/chromium');
if (!chromium && process.env.REQUIRE_E2E === '1')
  throw new Error('REQUIRE_E2E=1 but there is no Chromium at /usr/bin/chromium: apt-get install chromium');
if (!chromium)
  console.warn(
    'e2e: SKIPPED the handheld app browser tests (test/e2e): no Chromium at /usr/bin/chromium (apt-get install chromium)',
  );
const postgres = process.env.TEST_DATABASE_URL !== undefined && process.env.TEST_DATABASE_URL !== '';

export default defineConfig({
  test: {
    environment: 'node',
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Handlers log every rejected request; the tests assert on responses, not on log lines.
    env: { POWERTOOLS_LOG_LEVEL: 'SILENT', POWERTOOLS_DEV: 'false' },
    maxWorkers: 2,
    projects: [
      { extends: true, test: { name: 'unit', include: ['test/lib/**/*.test.ts', 'test/house.test.ts'] } },
      // The CDK library is loaded once per worker rather than once per file (a third of this
      // project's time); no infra test changes a module's state or the environment it imports with.
      {
        extends: true,
        test: {
          name: 'infra',
          include: ['test/infra/**/*.test.ts', 'test/local/**/*.test.ts', 'test/ops/**/*.test.ts'],
          isolate: false,
        },
      },
      { extends: true, test: { name: 'web', include: ['web/test/**/*.test.ts'] } },
      ...(chromium
        ? [{ extends: true, test: { name: 'e2e', include: ['test/e2e/**/*.test.ts'], testTimeout: 30_000 } }]
        : []),
      {
        extends: true,
        test: {
          name: 'pglite',
          include: ['test/integration/**/*.test.ts'],
          isolate: false,
          env: { TEST_BACKEND: 'pglite' },
          globalSetup: ['test/support/service-template.setup.ts'],
        },
      },
      ...(postgres
        ? [
            {
              extends: true,
              test: {
                name: 'postgres',
                include: ['test/integration/**/*.test.ts'],
                isolate: false,
                env: { TEST_BACKEND: 'postgres' },
              },
            },
          ]
        : []),
    ],
  },
});
