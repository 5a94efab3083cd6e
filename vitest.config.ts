import { defineConfig } from 'vitest/config';

/**
 * Three kinds of tests: unit tests of `lib`, infrastructure tests (CDK template, emulators), and
 * integration tests that go through the emulated API Gateway and Data API as a scanner would.
 * The integration suite runs over embedded PGlite always, and once more over PostgreSQL when
 * TEST_DATABASE_URL names a server (CI sets it).
 */
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
      { extends: true, test: { name: 'unit', include: ['test/lib/**/*.test.ts'] } },
      { extends: true, test: { name: 'infra', include: ['test/infra/**/*.test.ts'] } },
      { extends: true, test: { name: 'pglite', include: ['test/integration/**/*.test.ts'], env: { TEST_BACKEND: 'pglite' } } },
      ...(postgres
        ? [{ extends: true, test: { name: 'postgres', include: ['test/integration/**/*.test.ts'], env: { TEST_BACKEND: 'postgres' } } }]
        : []),
    ],
  },
});
