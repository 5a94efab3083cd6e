import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** The repository root: `npm start` and `npm run token` run from there. */
export const ROOT = fileURLToPath(new URL('../../', import.meta.url));

export interface Finished {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** The environment of a child process: this one's, without the test runner's database settings. */
const childEnv = (env: Record<string, string | undefined>): NodeJS.ProcessEnv => {
  const base: NodeJS.ProcessEnv = { ...process.env };
  for (const name of ['DATABASE_URL', 'DATA_DIR', 'PORT', 'DATA_API_ENDPOINT', 'DB_CLUSTER_ARN', 'DB_SECRET_ARN'])
    delete base[name];
  return { ...base, ...env };
};

/** Runs `npm <args>` to its end, collecting what it prints. */
export const runNpm = (
  args: readonly string[],
  env: Record<string, string | undefined> = {},
  timeoutMs = 60_000,
): Promise<Finished> =>
  new Promise((resolve, reject) => {
    const child = spawn('npm', args, { cwd: ROOT, env: childEnv(env), stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });

export interface Running {
  readonly child: ChildProcess;
  /** The URL from the ready line. */
  readonly url: string;
  readonly readyLine: string;
  /** Stops it with SIGTERM, as Ctrl-C would, and waits for it to exit. */
  stop(): Promise<number | null>;
}

/**
 * Starts `npm start` and waits for its ready line; rejects with what it printed when it exits
 * first.
 */
export const startService = (env: Record<string, string | undefined>, timeoutMs = 90_000): Promise<Running> =>
  new Promise((resolve, reject) => {
    // node directly (what `npm start` runs) so that SIGTERM reaches the service itself.
    const child = spawn(process.execPath, ['--import', 'tsx', 'local/start.ts'], {
      cwd: ROOT,
      env: childEnv(env),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    const exited = new Promise<number | null>((done) => child.on('close', (code) => done(code)));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`no ready line within ${timeoutMs} ms: ${stdout}${stderr}`));
    }, timeoutMs);
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      const line = stdout.split('\n').find((l) => l.includes(' ready on '));
      const url = line?.match(/ready on (http:\/\/\S+?)\s/)?.[1];
      if (line === undefined || url === undefined) return;
      clearTimeout(timer);
      resolve({
        child,
        url,
        readyLine: line,
        stop: async () => {
          if (child.exitCode === null) child.kill('SIGTERM');
          return exited;
        },
      });
    });
    void exited.then((code) => {
      clearTimeout(timer);
      reject(Object.assign(new Error(`npm start exited with ${String(code)}`), { code, stdout, stderr }));
    });
  });

/** Runs `npm start` expecting it to stop by itself (a refusal); what it printed. */
export const startExpectingExit = async (env: Record<string, string | undefined>): Promise<Finished> => {
  try {
    const running = await startService(env);
    await running.stop();
    throw new Error(`npm start did not refuse: ${running.readyLine}`);
  } catch (error) {
    const e = error as Error & Partial<Finished>;
    if (e.stderr === undefined) throw error;
    return { code: e.code ?? null, stdout: e.stdout ?? '', stderr: e.stderr };
  }
};
