import { closeSync, fstatSync, linkSync, openSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
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

/** The lock file as read from one open file: its inode and who it names (undefined: unreadable). */
interface Seen {
  readonly ino: bigint;
  readonly holder: Holder | undefined;
}

const parseHolder = (text: string): Holder | undefined => {
  const [pid, host] = text.split('\n');
  const number = Number(pid);
  return Number.isSafeInteger(number) && number > 0 ? { pid: number, host: host ?? '' } : undefined;
};

const readHolder = (file: string): Holder | undefined => {
  try {
    return parseHolder(readFileSync(file, 'utf8'));
  } catch {
    return undefined;
  }
};

/** Reads the lock file through one descriptor, so that its inode and content belong together; undefined when gone. */
const readLock = (file: string): Seen | undefined => {
  let fd: number;
  try {
    fd = openSync(file, 'r');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  try {
    return { ino: fstatSync(fd, { bigint: true }).ino, holder: parseHolder(readFileSync(fd, 'utf8')) };
  } finally {
    closeSync(fd);
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

/** Waits without giving up the thread: the lock is taken before anything else runs. */
const pause = (ms: number): void => {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
};

/** How long a takeover may take before its claim is deemed left by a start that died in it. */
const TAKEOVER_MS = 2_000;

/**
 * Takes over the stale lock file `file` that was inode `ino`: only the start whose claim on
 * that inode exists (`<file>.takeover-<ino>`, a hard link made with `link`, which fails when the
 * name exists) removes it, so two starts can never both remove a lock and each place its own;
 * nobody else changes the lock file while it is that inode (a start that finds it gets EEXIST).
 * 'taken', or 'retry' when the file changed or another start is taking it over.
 */
const takeOver = (file: string, ino: bigint, draft: string): 'taken' | 'retry' => {
  const claim = `${file}.takeover-${String(ino)}`;
  try {
    linkSync(file, claim);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EEXIST' || code === 'ENOENT') return 'retry';
    throw error;
  }
  try {
    // The name may have become another lock between reading it and claiming it.
    if (statSync(claim, { bigint: true }).ino !== ino) return 'retry';
    rmSync(file);
    linkSync(draft, file); // EEXIST: a start that found no lock at all took it meanwhile
    return 'taken';
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return 'retry';
    throw error;
  } finally {
    rmSync(claim, { force: true });
  }
};

/**
 * Takes the data folder for this process before anything opens the database in it.
 *
 * A lock file created atomically (written aside, then hard-linked into place: `link` fails when
 * the name exists, like `O_CREAT | O_EXCL`, and the file is never seen half-written) holding
 * this process id and host name, the scheme PostgreSQL uses for `postmaster.pid`. A lock whose
 * process no longer runs on this host (killed with `kill -9`, a crash) is stale and taken over
 * by exactly one of the starts that find it, also when they find it at the same instant;
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
  const held = (holder: Holder | undefined): boolean =>
    // Another host (a shared folder) cannot be checked: its lock is treated as held.
    holder !== undefined && (holder.host !== hostname() || alive(holder.pid)) && holder.pid !== process.pid;
  rmSync(draft, { force: true });
  writeFileSync(draft, content, { mode: 0o600 });
  try {
    const since = Date.now();
    for (;;) {
      try {
        // Written aside, then linked into place: the lock file appears atomically and complete.
        linkSync(draft, file);
        break;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      }
      const seen = readLock(file);
      if (seen === undefined) continue; // released meanwhile: try again
      if (held(seen.holder)) throw new DataDirInUseError(dataDir, seen.holder?.pid ?? 0, file);
      if (takeOver(file, seen.ino, draft) === 'taken') break;
      if (Date.now() - since > TAKEOVER_MS) {
        // A claim older than any takeover takes: its start died in it (killed then).
        throw new DataDirInUseError(dataDir, seen.holder?.pid ?? 0, `${file}.takeover-${String(seen.ino)}`);
      }
      pause(5);
    }
  } finally {
    rmSync(draft, { force: true });
  }
  return {
    file,
    release: () => {
      if (readHolder(file)?.pid === process.pid) rmSync(file, { force: true });
    },
  };
};
