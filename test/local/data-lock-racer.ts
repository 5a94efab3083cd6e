import { lockDataDir } from '../../local/data-lock.ts';

/**
 * One of several starts racing for the data folders named on the command line: at each
 * folder's moment (`start` + its index × `slot` ms) it takes that folder's lock, prints
 * whether it got it, and keeps every lock it got until it exits, as a running `npm start` does.
 */
const [start = '0', slot = '0', ...dirs] = process.argv.slice(2);
const results: string[] = [];
dirs.forEach((dir, index) => {
  const at = Number(start) + index * Number(slot);
  while (Date.now() < at) {
    // Wait on the clock so that every racer takes the lock at the same instant.
  }
  try {
    lockDataDir(dir);
    results.push('won');
  } catch (error) {
    results.push(error instanceof Error && error.name === 'DataDirInUseError' ? 'refused' : String(error));
  }
});
process.stdout.write(`${JSON.stringify(results)}\n`);
