import { ms } from '../support/stats.ts';
import { table } from '../support/table.ts';
import { describeSchedule } from './schedule.ts';
import { describeWaits } from './waits.ts';
import type { YearResult } from './year.ts';
import { migrationNames } from './year-settings.ts';

/** The year-scale section as text: each statement's p50/p99 per design, side by side. */
export const renderYear = (result: YearResult): string => {
  const names = [...new Set(result.designs.flatMap((d) => d.statements.map((s) => s.name)))];
  const cell = (
    design: YearResult['designs'][number],
    name: string,
    pick: (s: YearResult['designs'][number]['statements'][number]) => string,
  ) => {
    const s = design.statements.find((x) => x.name === name);
    return s === undefined ? 'n/a' : pick(s);
  };
  const rows = names.map((name) => [
    name,
    ...result.designs.flatMap((d) => [
      cell(
        d,
        name,
        (s) =>
          `${ms(s.ms.p50)} / ${ms(s.ms.p99)} ms${s.planningMs === null ? '' : ` (plan ${ms(s.planningMs)} + exec ${ms(s.executionMs ?? NaN)})`}`,
      ),
      cell(d, name, (s) => (s.misses === undefined ? '-' : `${s.misses.mean.toFixed(1)} / ${s.misses.p99.toFixed(0)}`)),
      cell(
        d,
        name,
        (s) =>
          `${s.sharedHit ?? '-'} / ${s.sharedRead ?? '-'}${s.recordsPerSecond === undefined ? '' : `; ${s.recordsPerSecond} records/s`}`,
      ),
    ]),
  ]);
  const headers = [
    'statement',
    ...result.designs.flatMap((d) => {
      const label = d.name ?? d.design;
      return [`${label} p50 / p99`, `${label} misses mean / p99`, `${label} EXPLAIN hit / read`];
    }),
  ];
  const pairs = (entries: Record<string, string | number>, unit = '') =>
    Object.entries(entries)
      .map(([k, v]) => `${k} ${v}${unit}`)
      .join(', ');
  const seeds = result.designs.map((d) => {
    const floor = `commit floor (a one-row INSERT committed alone) p50 ${ms(d.commitFloor.p50)} / p99 ${ms(d.commitFloor.p99)} ms`;
    const cpu =
      d.cpuReference === undefined
        ? ''
        : `; CPU reference (a million rows counted) p50 ${ms(d.cpuReference.before.p50)} ms before the statements, ${ms(d.cpuReference.after.p50)} ms after`;
    const migration =
      d.migrationSeconds === undefined
        ? ''
        : `; ${migrationNames(d.migrationSeconds.migrations?.map((m) => m.id) ?? [22])}: ${d.migrationSeconds.statements} statements, ${d.migrationSeconds.total} s, the longest ${d.migrationSeconds.worst} s`;
    const spans = d.spanSeconds === undefined ? '' : `; cargo spans filled from the history ${d.spanSeconds} s`;
    return `${d.name ?? d.design}${migration}${spans}: seed ${pairs(d.seedSeconds, ' s')}; ${pairs(d.sizes)}; ${floor}${cpu}`;
  });
  const waits = result.designs.flatMap((d) =>
    d.statements.flatMap((s) =>
      s.waits === undefined ? [] : [`${d.name ?? d.design}, ${s.name}: ${describeWaits(s.waits)}`],
    ),
  );
  const relations = result.designs.flatMap((d) =>
    d.statements.flatMap((s) =>
      s.missesByRelation === undefined
        ? []
        : [
            `${d.name ?? d.design}, ${s.name}: ${Object.entries(s.missesByRelation)
              .map(([k, v]) => `${k} ${v}`)
              .join(', ')}`,
          ],
    ),
  );
  const schedules = result.designs.flatMap((d) =>
    d.statements.flatMap((s) =>
      s.schedule === undefined ? [] : [`${d.name ?? d.design}, ${s.name}: ${describeSchedule(s.schedule)}`],
    ),
  );
  return [
    `Year scale: ${result.settings.records} records, ${result.settings.boxes} boxes, databases in ${result.settings.locale}; ${Object.entries(
      result.server,
    )
      .map(([k, v]) => `${k}=${v}`)
      .join(', ')}`,
    table(headers, rows),
    ...seeds,
    ...(relations.length === 0 ? [] : ['Shared-buffer misses per sample by relation (pg_statio):', ...relations]),
    ...(waits.length === 0 ? [] : ['What the slowest samples of a second, watched pass waited for:', ...waits]),
    ...(schedules.length === 0
      ? []
      : ["The timed samples' backend on and off the CPU, as the kernel counted it (means per sample):", ...schedules]),
  ].join('\n');
};
