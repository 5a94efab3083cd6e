import type pg from 'pg';

/**
 * What a statement's slowest samples spent their time on, as PostgreSQL's own wait events say:
 * while one connection runs the samples, a second polls its backend's row of `pg_stat_activity`
 * (each poll is a round trip, about 0.2 ms here). A poll is counted for the sample it falls in.
 * The polling takes CPU from the machine, so the samples of this pass are not the timed ones.
 */
export interface WaitProfile {
  /** Samples in the pass, and how many of the slowest the profile describes. */
  readonly samples: number;
  readonly slowest: number;
  /** The slowest took at least this long. */
  readonly overMs: number;
  /** Polls inside the slowest samples. */
  readonly polls: number;
  /**
   * Share of those polls (percent, largest first) per wait event (`IO:WALSync`, …), `CPU` for
   * an active backend waiting on nothing, and `client` for a backend idle between the client's
   * start of a sample and its end (the round trip and the client's own work).
   */
  readonly shares: Readonly<Record<string, number>>;
}

/** The slowest 5 % of the samples: 50 of 1 000, enough polls to name what they wait for. */
const SLOWEST = 0.05;

/** The server process behind a connection: what pg_stat_activity and /proc know it by. */
export const backendPid = async (client: pg.Client): Promise<number> => {
  const { rows } = await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
  const pid = rows[0]?.pid;
  if (pid === undefined) throw new Error('the server named no backend process');
  return pid;
};

/**
 * Polls what the backend `pid` waits for while its connection sends the samples.
 * `prepare(i)` builds sample i's request and returns what sends it: only the sending is inside the
 * sample's span, as in the timed pass.
 *
 * @example
 * ```ts
 * const profile = await profileWaits(await backendPid(client), watcher, 1000, (i) => {
 *   const values = valuesOf(i);
 *   return () => client.query(sql, values);
 * });
 * profile.shares; // { 'IO:WALSync': 61, CPU: 24, ... }
 * ```
 */
export const profileWaits = async (
  pid: number,
  watcher: pg.Client,
  samples: number,
  prepare: (i: number) => () => Promise<unknown>,
): Promise<WaitProfile> => {
  const polls: { at: number; label: string }[] = [];
  let running = true;
  const polling = (async () => {
    while (running) {
      const at = performance.now();
      const { rows: activity } = await watcher.query<{ state: string; type: string | null; event: string | null }>(
        'SELECT state, wait_event_type AS type, wait_event AS event FROM pg_stat_activity WHERE pid = $1',
        [pid],
      );
      const a = activity[0];
      if (a === undefined) continue;
      polls.push({ at, label: a.state !== 'active' ? 'client' : a.event === null ? 'CPU' : `${a.type}:${a.event}` });
    }
  })();
  const spans: { from: number; to: number }[] = [];
  try {
    for (let i = 0; i < samples; i += 1) {
      const send = prepare(i);
      const from = performance.now();
      await send();
      spans.push({ from, to: performance.now() });
    }
  } finally {
    running = false;
    await polling;
  }
  const slowest = [...spans]
    .sort((x, y) => y.to - y.from - (x.to - x.from))
    .slice(0, Math.max(1, Math.round(samples * SLOWEST)));
  const counts = new Map<string, number>();
  let inside = 0;
  for (const { at, label } of polls)
    if (slowest.some((s) => at >= s.from && at < s.to)) {
      inside += 1;
      counts.set(label, (counts.get(label) ?? 0) + 1);
    }
  const last = slowest.at(-1) as { from: number; to: number };
  return {
    samples,
    slowest: slowest.length,
    overMs: last.to - last.from,
    polls: inside,
    shares: Object.fromEntries(
      [...counts].sort((x, y) => y[1] - x[1]).map(([label, n]) => [label, Math.round((100 * n) / inside)]),
    ),
  };
};

/** `IO:WALSync 61 %, CPU 24 %` */
export const describeWaits = (p: WaitProfile): string =>
  `slowest ${p.slowest} of ${p.samples} (${p.overMs.toFixed(1)} ms and over, ${p.polls} polls): ${Object.entries(
    p.shares,
  )
    .map(([label, share]) => `${label} ${share} %`)
    .join(', ')}`;
