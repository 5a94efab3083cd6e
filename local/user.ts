import { resolve } from 'node:path';
import { commandLine, groupList } from './command-line.ts';
import { deleteUser, saveUser, UserInputError } from './users.ts';

/**
 * `npm run -s user -- --user NAME --password SECRET [--groups operator,supervisor]` creates a
 * user of the local sign-in stand-in (or sets an existing user's password and groups);
 * `--delete` removes one. Users live in DATA_DIR (users.json), beside the signing key, and count
 * at the next sign-in, without restarting `npm start`.
 */
const USAGE = `usage: npm run -s user -- --user NAME --password SECRET [--groups operator,supervisor]
       npm run -s user -- --user NAME --delete
  --user NAME         the user name the handheld signs in with (required)
  --password SECRET   at least 8 characters
  --groups LIST       comma-separated groups: operator, supervisor, integration (default operator)
  --delete            remove the user
  DATA_DIR            the data folder of the npm start the user signs in to (default .data)
`;

const { values, fail } = commandLine('user', USAGE, {
  user: { type: 'string' },
  password: { type: 'string' },
  groups: { type: 'string', default: 'operator' },
  delete: { type: 'boolean', default: false },
});
const dataDir = resolve(process.env.DATA_DIR || '.data');
const user = values.user?.trim() ?? '';
if (user === '') fail('--user NAME is required');
if (values.delete) {
  if (!deleteUser(dataDir, user)) fail(`there is no user '${user}' in ${dataDir}`);
  process.stdout.write(`user ${user} deleted\n`);
} else {
  if (values.password === undefined) fail('--password SECRET is required');
  const groups = groupList(values.groups);
  try {
    saveUser(dataDir, { user, password: values.password as string, groups });
  } catch (error) {
    if (error instanceof UserInputError) fail(error.message);
    throw error;
  }
  process.stdout.write(
    `user ${user} saved (groups: ${groups.join(', ') || 'none'}); sign in at the app of the npm start on ${dataDir}\n`,
  );
}
