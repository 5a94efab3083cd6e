import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir, totalmem } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ColdStartResult } from './coldstart/run.ts';
import { renderColdStart } from './coldstart/report.ts';
import { renderRoundTrips } from './roundtrips/report.ts';
import type { RoundTripResult } from './roundtrips/run.ts';
import { renderSql } from './sql/report.ts';
import type { SqlResult } from './sql/run.ts';
import { renderYear } from './sql/year-report.ts';
import type { YearResult } from './sql/year.ts';
import { readBenchSettings } from './support/settings.ts';

/**
 * `npm run bench [-- --only=roundtrips,coldstart,sql]`: runs the sections (each in its own
 * process), prints their tables, and writes bench/results.json (sections not run this time
 * are kept from the previous file, each with the time it was measured).
 */
const SECTIONS = ['roundtrips', 'coldstart', 'sql', 'year'] as const;
/** Run only when asked for (`--only=year`): hours at its full size (see docs/PERFORMANCE.md). */
const ON_REQUEST: readonly Section[] = ['year'];
type Section = (typeof SECTIONS)[number];

const HERE = path.dirname(fileURLToPath(import.meta.url));
const RESULTS = path.join(HERE, 'results.json');

const chosen = (): Section[] => {
  const only = process.argv.slice(2).find((a) => a.startsWith('--only='));
  if (only === undefined) return SECTIONS.filter((s) => !ON_REQUEST.includes(s));
  const names = only
    .slice('--only='.length)
    .split(',')
    .filter((n) => n !== '');
  const unknown = names.filter((n) => !(SECTIONS as readonly string[]).includes(n));
  if (unknown.length > 0 || names.length === 0)
    throw new Error(`--only takes ${SECTIONS.join('|')} (comma-separated), got '${only}'`);
  return names as Section[];
};

const runSection = async (name: Section, dir: string): Promise<unknown> => {
  const out = path.join(dir, `${name}.json`);
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(HERE, 'section.ts'), name, out], {
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
  if (code !== 0 || !existsSync(out)) throw new Error(`bench section ${name} failed (exit ${code})`);
  return JSON.parse(readFileSync(out, 'utf8'));
};

const render = (name: Section, result: unknown): string => {
  switch (name) {
    case 'roundtrips':
      return renderRoundTrips(result as RoundTripResult);
    case 'coldstart':
      return renderColdStart(result as ColdStartResult);
    case 'sql':
      return renderSql(result as SqlResult);
    case 'year':
      return renderYear(result as YearResult);
  }
};

const settings = readBenchSettings();
const sections = chosen();
const machine = {
  cpus: `${cpus().length} × ${cpus()[0]?.model ?? 'unknown'}`,
  memory: `${Math.round(totalmem() / 2 ** 30)} GiB`,
  node: process.version,
  platform: `${process.platform} ${process.arch}`,
};
process.stdout.write(
  `Bench on ${machine.cpus}, ${machine.memory}, Node ${machine.node}; sections: ${sections.join(', ')}; BENCH_SCALE=${settings.scale}\n\n`,
);

const previous = existsSync(RESULTS) ? (JSON.parse(readFileSync(RESULTS, 'utf8')) as Record<string, unknown>) : {};
const results: Record<string, unknown> = { ...previous, machine, settings };
const dir = mkdtempSync(path.join(tmpdir(), 'cargo-bench-'));
const started = Date.now();
try {
  for (const name of sections) {
    const sectionStarted = Date.now();
    // The 1-minute load average around a section: on a shared 2-core machine it explains noisy tails.
    const loadBefore = loadavg()[0] ?? 0;
    const result = await runSection(name, dir);
    const load = { before: Number(loadBefore.toFixed(2)), after: Number((loadavg()[0] ?? 0).toFixed(2)) };
    results[name] = {
      measuredAt: new Date().toISOString(),
      seconds: Math.round((Date.now() - sectionStarted) / 1000),
      loadAverage: load,
      ...(result as object),
    };
    process.stdout.write(
      `\n${render(name, result)}\n(${name}: ${(results[name] as { seconds: number }).seconds} s, load average ${load.before} before, ${load.after} after)\n\n`,
    );
    writeFileSync(RESULTS, `${JSON.stringify(results, null, 2)}\n`);
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
process.stdout.write(
  `Results written to ${path.relative(process.cwd(), RESULTS)} (${Math.round((Date.now() - started) / 1000)} s).\n`,
);
