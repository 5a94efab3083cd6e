import { parseArgs, type ParseArgsConfig } from 'node:util';

type Options = NonNullable<ParseArgsConfig['options']>;

/**
 * The arguments of a local npm command (`npm run -s token`, `npm run -s user`): `--help` prints the
 * usage and exits 0; an unknown or malformed option, or a `fail` of the command's own, prints the
 * reason and the usage on standard error and exits 2, without a stack trace. Words that are not
 * options (`import FILE.csv`) are refused unless `positionals` is set, and then returned in order.
 *
 * @example
 * ```ts
 * const { values, fail } = commandLine('token', USAGE, { user: { type: 'string' } });
 * if (values.user === undefined) fail('--user NAME is required');
 * ```
 */
export const commandLine = <const O extends Options>(
  command: string,
  usage: string,
  options: O,
  { positionals = false } = {},
) => {
  const fail = (reason: string): never => {
    process.stderr.write(`npm run ${command}: ${reason}\n${usage}`);
    process.exit(2);
  };
  let parsed: { values: { help?: boolean | undefined }; positionals: string[] };
  try {
    parsed = parseArgs({
      options: { ...options, help: { type: 'boolean', short: 'h', default: false } },
      allowPositionals: positionals,
    });
  } catch (error) {
    // parseArgs says e.g. "Unknown option '--usr'. To specify a positional argument..."; keep its first sentence.
    return fail((error as Error).message.split('. ')[0]?.replace(/^Unknown/, 'unknown') ?? 'bad arguments');
  }
  if (parsed.values.help === true) {
    process.stdout.write(usage);
    process.exit(0);
  }
  return {
    values: parsed.values as ReturnType<typeof parseArgs<{ options: O }>>['values'],
    positionals: parsed.positionals,
    fail,
  };
};

/** A `--groups` list as typed: comma-separated, spaces around names dropped, empty names ignored. */
export const groupList = (list: string): string[] =>
  list
    .split(',')
    .map((group) => group.trim())
    .filter((group) => group !== '');
