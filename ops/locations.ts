import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { localSigningKey, signLocalToken } from '../local/auth.ts';
import { commandLine } from '../local/command-line.ts';
import { ApiError, registerApi, type RegisterApi } from './locations-api.ts';
import { DEFAULT_RULES, locationsCsv, parseLocationsCsv, type RegisteredLocation } from './locations-csv.ts';
import { BatchRefused, importLocations } from './locations-import.ts';
import { progressOn, summaryText } from './locations-progress.ts';

/**
 * `npm run -s locations -- import FILE.csv | export FILE.csv [--base-url URL] [--token TOKEN] [--prefix cargo]`
 *
 * The location register as a CSV file, through the service's API: `import` checks every line
 * first and sends nothing when one is bad, then sends the file in batches of up to 500, each
 * under an Idempotency-Key made from its content; `export` writes the register as the same CSV.
 */
const USAGE = `usage: npm run -s locations -- import FILE.csv | export FILE.csv [options]
  import FILE.csv     register the file's locations (header location_code,kind,zone,description,blocked)
  export FILE.csv     write the register to FILE.csv in the same columns
  --base-url URL      the API: the local runtime's address, or the stack's ApiUrl output
                      (default CARGO_API_URL or http://127.0.0.1:3000)
  --token TOKEN       a supervisor's ID token (default CARGO_TOKEN; for a local URL, one signed with
                      the key in DATA_DIR for --user, as npm run -s token makes it)
  --user NAME         the user of that local token (default ops)
  --prefix NAME       the service prefix (default SERVICE_PREFIX or cargo)
  LOCATION_CODE_PATTERN  the service's location code pattern, if it is not the default
`;

const { values, positionals, fail } = commandLine(
  'locations',
  USAGE,
  {
    'base-url': { type: 'string', default: process.env.CARGO_API_URL || 'http://127.0.0.1:3000' },
    token: { type: 'string', default: process.env.CARGO_TOKEN || undefined },
    user: { type: 'string', default: 'ops' },
    prefix: { type: 'string', default: process.env.SERVICE_PREFIX || 'cargo' },
  },
  { positionals: true },
);

const [action, file, ...extra] = positionals;
if (action !== 'import' && action !== 'export') fail('say import FILE.csv or export FILE.csv');
if (file === undefined || file === '' || extra.length > 0) fail(`${action} takes one FILE.csv`);

const baseUrl = values['base-url'];
let url: URL;
try {
  url = new URL(baseUrl);
} catch {
  fail(`--base-url '${baseUrl}' is not a URL`);
}
const local = ['127.0.0.1', 'localhost', '[::1]'].includes(url!.hostname);

const locationCode = (): RegExp => {
  const source = process.env.LOCATION_CODE_PATTERN;
  if (source === undefined || source === '') return DEFAULT_RULES.locationCode;
  try {
    return new RegExp(source);
  } catch {
    return fail(`LOCATION_CODE_PATTERN '${source}' is not a regular expression`);
  }
};

const tokenFor = async (): Promise<string> => {
  if (values.token !== undefined) return values.token;
  if (!local) return fail(`--token is required for ${baseUrl} (a supervisor's ID token from Cognito)`);
  const key = localSigningKey(resolve(process.env.DATA_DIR || '.data'));
  return signLocalToken(key, { user: values.user, groups: ['supervisor'], expiresInSeconds: 3600 });
};

const runImport = async (api: RegisterApi, path: string): Promise<number> => {
  let bytes: Buffer;
  try {
    bytes = readFileSync(path);
  } catch (error) {
    process.stderr.write(`npm run locations: cannot read ${path}: ${(error as Error).message}\n`);
    return 1;
  }
  const parsed = parseLocationsCsv(bytes, { locationCode: locationCode() });
  if (!parsed.ok) {
    const shown = parsed.problems.slice(0, 50).map((p) => `${path} line ${p.line}: ${p.reason}\n`);
    const more = parsed.problems.length - shown.length;
    process.stderr.write(
      `${shown.join('')}${more > 0 ? `and ${more} more bad lines\n` : ''}npm run locations: ${path} has ${parsed.problems.length} bad line${parsed.problems.length === 1 ? '' : 's'}; nothing was sent\n`,
    );
    return 1;
  }
  try {
    const counts = await importLocations(api, parsed.lines, progressOn(process.stderr, parsed.lines.length));
    process.stdout.write(`imported ${parsed.lines.length} locations from ${path}: ${summaryText(counts)}\n`);
    return 0;
  } catch (error) {
    if (!(error instanceof BatchRefused)) throw error;
    const before =
      error.batch.number === 1
        ? 'nothing was imported'
        : `the batches before it were imported (${summaryText(error.before)})`;
    process.stderr.write(
      `npm run locations: ${error.message}\n${before}; run the same command again once this is fixed: what is imported is not sent again\n`,
    );
    return 1;
  }
};

const runExport = async (api: RegisterApi, path: string): Promise<number> => {
  const all: RegisteredLocation[] = [];
  for await (const page of api.list()) all.push(...page);
  // Written beside it and renamed, so that a failed export leaves no half file under the name.
  const partial = `${path}.partial`;
  writeFileSync(partial, locationsCsv(all));
  renameSync(partial, path);
  process.stdout.write(`exported ${all.length} locations to ${path}\n`);
  return 0;
};

try {
  const api = registerApi({ baseUrl, prefix: values.prefix, token: await tokenFor() });
  process.exitCode = action === 'import' ? await runImport(api, file!) : await runExport(api, file!);
} catch (error) {
  const e = error as Error;
  process.stderr.write(
    `npm run locations: ${error instanceof ApiError ? `the API answered ${e.message}` : e.message}\n`,
  );
  process.exitCode = 1;
}
