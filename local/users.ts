import { randomBytes, scryptSync, timingSafeEqual } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The local user pool's users, kept in the data folder (`users.json`) beside the signing key:
 * a user name, a scrypt hash of the password and the groups. `npm run user` writes it; the
 * local Cognito stand-in (cognito.ts) reads it on every sign-in, so a change counts at once.
 */
export interface LocalUser {
  readonly groups: readonly string[];
  readonly salt: string;
  readonly hash: string;
}

/** The demo users a fresh data folder starts with (listed in the README). */
const DEMO_USERS: readonly { user: string; password: string; groups: readonly string[] }[] = [
  { user: 'olga', password: 'olga-demo-2026', groups: ['operator'] },
  { user: 'sam', password: 'sam-demo-2026', groups: ['operator', 'supervisor'] },
];

/** As the user pool's default policy asks for at least 8 characters. */
const MIN_PASSWORD_LENGTH = 8;
/** Cognito user names: printable, no spaces, at most 128 characters. */
const USER_NAME = /^[\p{L}\p{M}\p{S}\p{N}\p{P}]{1,128}$/u;

const usersFile = (dataDir: string) => join(dataDir, 'users.json');

const hashOf = (password: string, salt: string) =>
  scryptSync(password.normalize('NFC'), Buffer.from(salt, 'base64'), 32).toString('base64');

export const readUsers = (dataDir: string): Record<string, LocalUser> => {
  const file = usersFile(dataDir);
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Record<string, LocalUser>) : {};
};

const writeUsers = (dataDir: string, users: Record<string, LocalUser>) => {
  mkdirSync(dataDir, { recursive: true });
  const file = usersFile(dataDir);
  writeFileSync(`${file}.tmp`, `${JSON.stringify(users, null, 2)}\n`, { mode: 0o600 });
  renameSync(`${file}.tmp`, file);
};

/** Why a user cannot be saved as asked, for the command line. */
export class UserInputError extends Error {
  override readonly name = 'UserInputError';
}

/**
 * Creates the user, or sets the password and groups of an existing one.
 *
 * @example
 * ```ts
 * saveUser('.data', { user: 'olga', password: 'Warehouse-Olga-2026!', groups: ['operator'] });
 * ```
 */
export const saveUser = (
  dataDir: string,
  input: { user: string; password: string; groups: readonly string[] },
): void => {
  if (!USER_NAME.test(input.user))
    throw new UserInputError(`user name '${input.user}' must be 1-128 printable characters without spaces`);
  if (input.password.length < MIN_PASSWORD_LENGTH)
    throw new UserInputError(`the password must have at least ${MIN_PASSWORD_LENGTH} characters`);
  const salt = randomBytes(16).toString('base64');
  writeUsers(dataDir, {
    ...readUsers(dataDir),
    [input.user]: { groups: [...input.groups], salt, hash: hashOf(input.password, salt) },
  });
};

export const deleteUser = (dataDir: string, user: string): boolean => {
  const users = readUsers(dataDir);
  if (users[user] === undefined) return false;
  delete users[user];
  writeUsers(dataDir, users);
  return true;
};

/** Creates the demo users when the data folder has no users file yet (a fresh folder). */
export const ensureDemoUsers = (dataDir: string): void => {
  if (existsSync(usersFile(dataDir))) return;
  for (const demo of DEMO_USERS) saveUser(dataDir, demo);
};

/** The user's groups when the password is right, `undefined` otherwise (also for an unknown user). */
export const checkPassword = (dataDir: string, user: string, password: string): readonly string[] | undefined => {
  const found = readUsers(dataDir)[user];
  if (found === undefined) return undefined;
  const expected = Buffer.from(found.hash, 'base64');
  const actual = Buffer.from(hashOf(password, found.salt), 'base64');
  return expected.length === actual.length && timingSafeEqual(expected, actual) ? found.groups : undefined;
};
