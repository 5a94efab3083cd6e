import { execFile, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { DataDirInUseError, lockDataDir } from '../../local/data-lock.ts';

const RACER = fileURLToPath(new URL('./data-lock-racer.ts', import.meta.url));
const root = mkdtempSync(join(tmpdir(), 'data-lock-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** The id of a process that ran and ended: a lock naming it is stale. */
const deadPid = (): number => {
  const child = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
  return Number(child.stdout);
};

/** A data folder whose lock was left by a process that no longer runs (killed with kill -9). */
const staleFolder = (name: string): string => {
  const folder = mkdtempSync(join(root, `${name}-`));
  writeFileSync(join(folder, 'npm-start.lock'), `${String(deadPid())}\n${hostname()}\n`);
  return folder;
};

const race = (start: number, slot: number, dirs: readonly string[]): Promise<string[]> =>
  new Promise((resolve, reject) => {
    execFile(process.execPath, ['--import', 'tsx', RACER, String(start), String(slot), ...dirs], (error, stdout) =>
      error === null ? resolve(JSON.parse(stdout) as string[]) : reject(error),
    );
  });

describe('the data folder lock', () => {
  it('is taken over by exactly one of many starts racing for a stale lock', async () => {
    const folders = Array.from({ length: 25 }, (_, i) => staleFolder(`stale-${String(i)}`));
    // Every racer has loaded before the first moment; then all take each folder's lock at once.
    const start = Date.now() + 4_000;
    const racers = await Promise.all(Array.from({ length: 8 }, () => race(start, 60, folders)));
    const winners = folders.map((_, i) => racers.filter((results) => results[i] === 'won').length);
    expect(racers.flat().filter((r) => r !== 'won' && r !== 'refused')).toEqual([]);
    expect(winners).toEqual(folders.map(() => 1));
  }, 30_000);

  it('takes over a stale lock leaving no other file behind, and once released can be taken again', () => {
    const folder = staleFolder('released');
    const lock = lockDataDir(folder);
    expect(readdirSync(folder)).toEqual(['npm-start.lock']);
    lock.release();
    expect(readdirSync(folder)).toEqual([]);
    lockDataDir(folder).release();
  });

  it('refuses a lock held by a live process on this host', () => {
    const folder = staleFolder('live');
    writeFileSync(join(folder, 'npm-start.lock'), `${String(process.ppid)}\n${hostname()}\n`);
    expect(() => lockDataDir(folder)).toThrow(DataDirInUseError);
  });
});
