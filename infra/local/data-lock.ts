import { linkSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';

/** Raised when another live process holds the data folder. */
export class DataDirInUseError extends Error {
  override readonly name = 'DataDirInUseError';
  constructor(
    readonly dataDir: string,
    readonly pid: number,
    readonly lockFile: string,
  ) {
    super(
      `DATA_DIR ${dataDir} is in use by another npm start (process ${String(pid)}): two processes on one embedded database lose writes. ` +
        `Stop that one first, or set DATA_DIR to another folder. If no such process runs, delete ${lockFile}.`,
    );
  }
}

export interface DataDirLock {
  readonly file: string;
  /** Removes the lock file (only if it is still ours). */
  release(): void;
}

interface Holder {
  readonly pid: number;
  readonly host: string;
}

const readHolder = (file: string): Holder | undefined => {
  try {
    const [pid, host] = readFileSync(file, 'utf8').split('\n');
    const number = Number(pid);
    return Number.isSafeInteger(number) && number > 0 ? { pid: number, host: host ?? '' } : undefined;
  } catch {
    return undefined;
  }
};

/** Whether a process with this id exists on this machine (EPERM: it exists, owned by someone else). */
const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
};

/**
 * Takes the data folder for this process before anything opens the database in it.
 *
 * A lock file created atomically (written aside, then hard-linked into place: `link` fails when
 * the name exists, like `O_CREAT | O_EXCL`, and the file is never seen half-written) holding
 * this process id and host name, the scheme PostgreSQL uses for `postmaster.pid`. A lock whose
 * process no longer runs on this host (killed with `kill -9`, a crash) is stale and taken over;
 * a live one refuses at once, with no waiting: a time-based lease (as `proper-lockfile` keeps, by
 * refreshing the file's mtime) would make a restart after `kill -9` wait out the lease, and a
 * long synchronous PGlite step could miss a refresh and lose the lock while it still runs.
 *
 * @example
 * ```ts
 * const lock = lockDataDir('/home/me/.data'); // throws DataDirInUseError while another npm start runs
 * process.on('exit', () => lock.release());
 * ```
 */
export const lockDataDir = (dataDir: string): DataDirLock => {
  const file = join(dataDir, 'npm-start.lock');
  const content = `${String(process.pid)}\n${hostname()}\n`;
  const draft = `${file}.${String(process.pid)}`;
  for (let attempt = 0; ; attempt++) {
    try {
      // Written aside, then linked into place: the lock file appears atomically and complete.
      writeFileSync(draft, content, { mode: 0o600 });
      linkSync(draft, file);
      rmSync(draft, { force: true });
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      rmSync(draft, { force: true });
      const holder = readHolder(file);
      // Another host (a shared folder) cannot be checked: treat its lock as held.
      const held =
        holder !== undefined && (holder.host !== hostname() || alive(holder.pid)) && holder.pid !== process.pid;
      if (held || attempt > 0) throw new DataDirInUseError(dataDir, holder?.pid ?? 0, file);
      // Stale: remove it and try once more; a second start racing for the same stale lock gets
      // EEXIST on that try and refuses.
      rmSync(file, { force: true });
    }
  }
  return {
    file,
    release: () => {
      if (readHolder(file)?.pid === process.pid) rmSync(file, { force: true });
    },
  };
};
