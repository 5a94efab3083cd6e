import { readFileSync } from 'node:fs';
import { median, percentile } from '../support/stats.ts';

/**
 * What the kernel says a statement's backend did with each sample's time, read from `/proc` around
 * the sample (outside its clock, while the backend waits for the next request): its time on a CPU
 * and waiting for one (`/proc/<pid>/schedstat`, in nanoseconds; the guest kernel leaves out the
 * time the hypervisor ran something else, CONFIG_PARAVIRT_TIME_ACCOUNTING), how often it blocked
 * and was preempted (`/proc/<pid>/status`), and the machine's stolen time (`/proc/stat`, both CPUs,
 * in ticks of 10 ms, so one sample's figure is coarse and only a mean over many says something).
 * The rest of a sample is the backend off the CPU: its disk reads and WAL flush, the round trip.
 * Right after each sample the same backend runs a fixed piece of work (`reference`, outside the
 * sample's clock) whose CPU time is read the same way: a virtual CPU does the same work slower
 * while its host's core is busy with something else, which no steal counter shows, so slow samples
 * whose reference took more CPU too were slowed by the machine, not by more work in the statement.
 * Only for a server on this machine whose `/proc` entries can be read (the cluster of its own).
 */
export interface ScheduleProfile {
  /** Time on a CPU per sample, all samples (ms). */
  readonly cpuP50: number;
  readonly cpuP99: number;
  /** The slowest 1 % of the samples (at least one), means per sample. */
  readonly slowest: SampleAccount;
  /** The middle of the samples (p45-p55), means per sample, to set the slowest against. */
  readonly middle: SampleAccount;
}

export interface SampleAccount {
  readonly samples: number;
  readonly wallMs: number;
  readonly cpuMs: number;
  readonly runqueueMs: number;
  /** wall - CPU - run queue: blocked (disk, WAL flush, locks), the round trip, time stolen while running. */
  readonly offCpuMs: number;
  /** The machine's stolen time during the sample, both CPUs (ms; ticks of 10 ms). */
  readonly stolenMs: number;
  readonly blocked: number;
  readonly preempted: number;
  /** The CPU time of the fixed work run after the sample, against its median over all samples (1 = as usual). */
  readonly reference: number;
}

type Sample = Omit<SampleAccount, 'samples'>;

interface Reading {
  readonly cpuNs: number;
  readonly runqueueNs: number;
  readonly blocked: number;
  readonly preempted: number;
  readonly stolenTicks: number;
}

/** A tick of /proc/stat (USER_HZ, 100 on Linux). */
const TICK_MS = 10;

const read = (pid: number): Reading => {
  const [cpuNs, runqueueNs] = readFileSync(`/proc/${pid}/schedstat`, 'utf8').trim().split(' ').map(Number);
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const field = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+)`, 'm').exec(status)?.[1]);
  // "cpu  user nice system idle iowait irq softirq steal ...": the machine's line comes first.
  const stolenTicks = Number(readFileSync('/proc/stat', 'utf8').split('\n', 1)[0]?.trim().split(/\s+/)[8]);
  return {
    cpuNs: cpuNs ?? Number.NaN,
    runqueueNs: runqueueNs ?? Number.NaN,
    blocked: field('voluntary_ctxt_switches'),
    preempted: field('nonvoluntary_ctxt_switches'),
    stolenTicks,
  };
};

/**
 * A recorder for one statement's samples on backend `pid`, or undefined where its `/proc` entries
 * cannot be read (a server elsewhere, another user's process). `reference` sends the fixed work to
 * the same backend.
 *
 * @example
 * ```ts
 * const schedule = scheduleOf(pid, () => client.query('SELECT count(*) FROM generate_series(1, 20000)'));
 * const sample = schedule?.start();
 * await send();
 * await sample?.(elapsedMs);
 * schedule?.profile(); // { cpuP99: 31.2, slowest: { wallMs: 58.3, cpuMs: 33.0, ... }, ... }
 * ```
 */
export const scheduleOf = (pid: number, reference: () => Promise<unknown>) => {
  try {
    read(pid);
  } catch {
    return undefined;
  }
  const samples: Sample[] = [];
  return {
    /** Reads before the sample; the function it returns reads after it, runs the reference and keeps the sample. */
    start: () => {
      const before = read(pid);
      return async (wallMs: number) => {
        const after = read(pid);
        await reference();
        const referenceMs = (read(pid).cpuNs - after.cpuNs) / 1e6;
        const cpuMs = (after.cpuNs - before.cpuNs) / 1e6;
        const runqueueMs = (after.runqueueNs - before.runqueueNs) / 1e6;
        samples.push({
          wallMs,
          cpuMs,
          runqueueMs,
          offCpuMs: wallMs - cpuMs - runqueueMs,
          stolenMs: (after.stolenTicks - before.stolenTicks) * TICK_MS,
          blocked: after.blocked - before.blocked,
          preempted: after.preempted - before.preempted,
          reference: referenceMs,
        });
      };
    },
    profile: (): ScheduleProfile => {
      const cpu = samples.map((s) => s.cpuMs).sort((a, b) => a - b);
      const usual = median(samples.map((s) => s.reference));
      const byWall = samples.map((s) => ({ ...s, reference: s.reference / usual })).sort((a, b) => a.wallMs - b.wallMs);
      const n = byWall.length;
      return {
        cpuP50: percentile(cpu, 50),
        cpuP99: percentile(cpu, 99),
        slowest: account(byWall.slice(n - Math.max(1, Math.round(n / 100)))),
        middle: account(byWall.slice(Math.floor(n * 0.45), Math.max(Math.floor(n * 0.45) + 1, Math.ceil(n * 0.55)))),
      };
    },
  };
};

const account = (group: readonly Sample[]): SampleAccount => {
  const mean = (pick: (s: Sample) => number) => group.reduce((sum, s) => sum + pick(s), 0) / group.length;
  return {
    samples: group.length,
    wallMs: mean((s) => s.wallMs),
    cpuMs: mean((s) => s.cpuMs),
    runqueueMs: mean((s) => s.runqueueMs),
    offCpuMs: mean((s) => s.offCpuMs),
    stolenMs: mean((s) => s.stolenMs),
    blocked: mean((s) => s.blocked),
    preempted: mean((s) => s.preempted),
    reference: mean((s) => s.reference),
  };
};

/** `on CPU p50 20.1 / p99 31.0 ms; slowest 10: 58.2 ms = CPU 33.0 + run queue 1.2 + off CPU 24.0 (machine's stolen 6.0), 3.1 blocks, 2.0 preemptions, reference x1.45; middle …` */
export const describeSchedule = (p: ScheduleProfile): string => {
  const part = (label: string, a: SampleAccount) =>
    `${label} ${a.samples}: ${a.wallMs.toFixed(1)} ms = CPU ${a.cpuMs.toFixed(1)} + run queue ${a.runqueueMs.toFixed(1)} + off CPU ${a.offCpuMs.toFixed(1)} (machine's stolen ${a.stolenMs.toFixed(1)}), ${a.blocked.toFixed(1)} blocks, ${a.preempted.toFixed(1)} preemptions, reference x${a.reference.toFixed(2)}`;
  return `on CPU p50 ${p.cpuP50.toFixed(2)} / p99 ${p.cpuP99.toFixed(2)} ms; ${part('slowest', p.slowest)}; ${part('middle', p.middle)}`;
};
