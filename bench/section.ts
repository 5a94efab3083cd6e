import { writeFileSync } from 'node:fs';
import { readBenchSettings } from './support/settings.ts';

/**
 * One bench section in its own process (`node --import tsx bench/section.ts <name> <out.json>`):
 * handlers read their configuration and build their Data API client once per process, so each
 * section that starts a local stack needs a fresh one.
 */
const [name, out] = process.argv.slice(2);
if (name === undefined || out === undefined)
  throw new Error('usage: bench/section.ts <roundtrips|coldstart|sql|year> <out.json>');
const settings = readBenchSettings();

const run = async (): Promise<unknown> => {
  switch (name) {
    case 'roundtrips':
      return (await import('./roundtrips/run.ts')).runRoundTrips(settings);
    case 'coldstart':
      return (await import('./coldstart/run.ts')).runColdStart(settings);
    case 'sql':
      return (await import('./sql/run.ts')).runSql(settings);
    case 'year': {
      const year = await import('./sql/year.ts');
      return year.runYear(year.readYearSettings());
    }
    default:
      throw new Error(`unknown section ${name}`);
  }
};

writeFileSync(out, JSON.stringify(await run(), null, 2));
// The local stack's pools and timers must not keep a finished section alive.
process.exit(0);
