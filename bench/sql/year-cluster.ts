import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type pg from 'pg';
import { log, type YearSettings } from './year-settings.ts';

const BIN = '/usr/lib/postgresql/15/bin';

/**
 * glibc's allocator keeps the memory a backend frees instead of handing it back to the OS after
 * every statement. Planning over 30 partitions allocates about 1.5 MB; when glibc trims it after
 * each statement, the next one takes about 390 page faults to get it back, and in this VM (nested
 * virtualization) a page fault costs about 20 µs: 8-9 ms of a 2-3 ms statement, measured with
 * `perf stat -e page-faults` on the backend. Whether a backend trims depends on its history
 * (glibc raises its thresholds the first time it frees a large mapped block), so without this the
 * same statement takes 2.3 or 9.2 ms depending on what the connection ran first. On hardware
 * where a fault costs well under a microsecond, the difference is a fraction of a millisecond.
 */
const MALLOC = 'GLIBC_TUNABLES=glibc.malloc.trim_threshold=268435456:glibc.malloc.mmap_threshold=33554432';

/**
 * A PostgreSQL 15 cluster of its own (Debian's binaries), so that shared_buffers can be what a
 * small Aurora instance has without restarting the shared server. Runs as the current user;
 * trust authentication on the loopback only.
 */
export const startCluster = (s: YearSettings): { url: string; stop: () => void } => {
  const data = path.join(s.dir, 'data');
  const reuse = s.keep && existsSync(path.join(data, 'PG_VERSION'));
  if (!reuse) {
    if (existsSync(s.dir)) rmSync(s.dir, { recursive: true, force: true });
    mkdirSync(s.dir, { recursive: true });
  }
  // PostgreSQL refuses to run as root: as root, the cluster belongs to the postgres user.
  const root = process.getuid?.() === 0;
  if (root) spawnSync('chown', ['-R', 'postgres:postgres', s.dir]);
  const run = (bin: string, args: string[]) => {
    const command = root
      ? ['runuser', '-u', 'postgres', '--', 'env', MALLOC, path.join(BIN, bin), ...args]
      : ['env', MALLOC, path.join(BIN, bin), ...args];
    const out = spawnSync(command[0] as string, command.slice(1), { encoding: 'utf8' });
    if (out.status !== 0) throw new Error(`${bin} failed: ${out.stderr || out.stdout}`);
  };
  if (!reuse) run('initdb', ['-D', data, '-U', 'postgres', '--auth=trust', '--no-sync', '-E', 'UTF8', '--locale=C']);
  const options = [
    `-p ${s.port}`,
    '-c listen_addresses=127.0.0.1',
    `-c unix_socket_directories=${s.dir}`,
    `-c shared_buffers=${s.sharedBuffers}`,
    '-c effective_cache_size=1536MB',
    '-c work_mem=4MB',
    '-c maintenance_work_mem=1GB',
    '-c max_wal_size=8GB',
    '-c checkpoint_timeout=30min',
    '-c wal_level=minimal',
    '-c max_wal_senders=0',
    '-c synchronous_commit=on',
    '-c jit=off',
    // Each statement's shared-buffer misses, sample by sample (bench/sql/year-measure.ts).
    '-c shared_preload_libraries=pg_stat_statements',
    '-c pg_stat_statements.track_utility=off',
    '-c max_parallel_maintenance_workers=1',
    // Aurora's instances write no data pages, for checkpoints or for evicting a dirty buffer: its
    // storage builds pages from the log (AWS Database Blog, "Planning I/O in Amazon Aurora"). Here a
    // statement that needs a free buffer writes a dirty one out itself (IO:DataFileWrite in the
    // current location's slowest samples) unless the background writer has cleaned it already, so
    // it runs every 10 ms and cleans ahead of demand. docs/PERFORMANCE.md §4 has both measured.
    '-c bgwriter_delay=10ms',
    '-c bgwriter_lru_maxpages=1000',
    '-c bgwriter_lru_multiplier=4',
    // For the same reason Aurora writes no full-page images: PostgreSQL logs a page's whole image
    // at its first change after a checkpoint, so that a torn data page can be restored, and Aurora
    // neither checkpoints nor writes data pages. Measured here right after the seed's CHECKPOINT,
    // each backlog of 500 logged 8.4 MB with them and 0.7 MB without (docs/PERFORMANCE.md §4).
    '-c full_page_writes=off',
    ...s.serverOptions.map((o) => `-c ${o}`),
  ].join(' ');
  // A kept cluster may still be running from the run before: restarted, so that it runs with
  // this run's settings.
  if (reuse && existsSync(path.join(data, 'postmaster.pid'))) run('pg_ctl', ['-D', data, '-m', 'fast', '-w', 'stop']);
  run('pg_ctl', ['-D', data, '-l', path.join(s.dir, 'server.log'), '-o', options, '-w', 'start']);
  return {
    url: `postgres://postgres@127.0.0.1:${s.port}/postgres`,
    stop: () => {
      if (s.keep) return;
      run('pg_ctl', ['-D', data, '-m', 'fast', '-w', 'stop']);
      rmSync(s.dir, { recursive: true, force: true });
    },
  };
};

/**
 * The design's tables and indexes read into the OS page cache (pg_prewarm's 'read' mode, which
 * leaves shared_buffers alone) before it is measured: the history tables first, then every index,
 * then the small tables, so that what the machine cannot hold is the history's heap, which an
 * index-only read does not need. Without it a design is measured with whatever the run before
 * left in the cache (the other design's 16-23 GB evicts it), and the figures say more about this
 * machine's disk than about the design. What would miss a 1-ACU instance's cache is reported
 * apart: each statement's shared reads. The page cache is emptied first where the run may
 * (as root: /proc/sys/vm/drop_caches), since the kernel keeps pages read twice (the design
 * measured before) ahead of pages read once.
 */
export const prewarm = async (client: pg.Client): Promise<void> => {
  const t = performance.now();
  spawnSync('sync');
  try {
    writeFileSync('/proc/sys/vm/drop_caches', '1');
  } catch (error) {
    log(
      `  the page cache was not emptied (${(error as Error).message}): the design measured before may keep part of it`,
    );
  }
  const available = await client.query(`SELECT 1 FROM pg_available_extensions WHERE name = 'pg_prewarm'`);
  if (available.rowCount === 0) {
    log('  pg_prewarm is not installed on this server: measured with the page cache as it is');
    return;
  }
  await client.query('CREATE EXTENSION IF NOT EXISTS pg_prewarm');
  const { rows: relations } = await client.query<{ oid: number }>(
    `SELECT c.oid FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
     WHERE n.nspname = 'cargo' AND c.relkind IN ('r', 'i')
     ORDER BY CASE WHEN c.relkind = 'r' AND c.relname LIKE 'location_record%' THEN 0 WHEN c.relkind = 'i' THEN 1 ELSE 2 END, c.relname`,
  );
  let pages = 0;
  for (const { oid } of relations) {
    const { rows } = await client.query<{ pages: string }>(`SELECT pg_prewarm($1::oid, 'read')::text AS pages`, [oid]);
    pages += Number(rows[0]?.pages ?? 0);
  }
  const gb = (pages * 8192) / 2 ** 30;
  log(
    `  read ${gb.toFixed(1)} GB of tables and indexes into the page cache in ${((performance.now() - t) / 1000).toFixed(0)} s`,
  );
};
