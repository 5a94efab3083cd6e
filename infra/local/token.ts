import { parseArgs } from 'node:util';
import { localSigningKey, signLocalToken } from './auth.ts';

/**
 * `npm run token -- --user NAME --groups operator,supervisor [--expires-in SECONDS]`
 * Prints a bearer token the local gateway accepts, and nothing else, on standard output.
 */
const { values } = parseArgs({
  options: {
    user: { type: 'string' },
    groups: { type: 'string', default: 'operator' },
    'expires-in': { type: 'string', default: String(12 * 3600) },
  },
});

const user = values.user?.trim();
const expiresInSeconds = Number(values['expires-in']);
if (user === undefined || user === '' || !Number.isSafeInteger(expiresInSeconds) || expiresInSeconds <= 0) {
  process.stderr.write('usage: npm run token -- --user NAME [--groups operator,supervisor] [--expires-in SECONDS]\n');
  process.exit(2);
}
const groups = values.groups.split(',').map((g) => g.trim()).filter((g) => g !== '');
const key = localSigningKey(process.env.DATA_DIR ?? '.data');
process.stdout.write(`${await signLocalToken(key, { user, groups, expiresInSeconds })}\n`);
