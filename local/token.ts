import { resolve } from 'node:path';
import { localSigningKey, signLocalToken } from './auth.ts';
import { commandLine, groupList } from './command-line.ts';

/**
 * `npm run -s token -- --user NAME --groups operator,supervisor [--expires-in SECONDS]`
 * Prints a bearer token the local gateway accepts, and nothing else, on standard output
 * (`-s` keeps npm's own banner off it). Tokens are signed with the key in DATA_DIR, so the
 * token is accepted by the `npm start` of that same folder only.
 */
const USAGE = `usage: npm run -s token -- --user NAME [--groups operator,supervisor] [--expires-in SECONDS]
  --user NAME         the user name recorded on every write (required)
  --groups LIST       comma-separated groups: operator, supervisor, integration (default operator)
  --expires-in SECS   lifetime of the token in seconds (default 43200, 12 hours)
  DATA_DIR            the data folder of the npm start that must accept the token (default .data)
`;

const { values, fail } = commandLine('token', USAGE, {
  user: { type: 'string' },
  groups: { type: 'string', default: 'operator' },
  'expires-in': { type: 'string', default: String(12 * 3600) },
});
const user = values.user?.trim();
if (user === undefined || user === '') fail('--user NAME is required');
const expiresInSeconds = /^\d+$/.test(values['expires-in']) ? Number(values['expires-in']) : Number.NaN;
if (!Number.isSafeInteger(expiresInSeconds) || expiresInSeconds <= 0)
  fail(`--expires-in '${values['expires-in']}' must be a whole number of seconds above 0`);
const groups = groupList(values.groups);
const key = localSigningKey(resolve(process.env.DATA_DIR || '.data'));
process.stdout.write(`${await signLocalToken(key, { user: user as string, groups, expiresInSeconds })}\n`);
