import { ms } from '../support/stats.ts';
import { table } from '../support/table.ts';
import { describeSchedule } from './schedule.ts';
import { describeWaits } from './waits.ts';
import type { YearResult } from './year.ts';

/** The year-scale section as text: each statement's p50/p99 per design, side by side. */
export const renderYear = (result: YearResult): string => {
  const names = [...new Set(result.designs.flatMap((d) => d.statements.map((s) => s.name)))];
  const cell = (
    design: string,
    name: string,
    pick: (s: YearResult['designs'][number]['statements'][number]) => string,
  ) => {
    const s = result.designs.find((d) => d.design === design)?.statements.find((x) => x.name === name);
    return s === undefined ? 'n/a' : pick(s);
  };
  const rows = names.map((name) => [
    name,
    ...result.designs.flatMap((d) => [
      cell(
        d.design,
        name,
        (s) =>
          `${ms(s.ms.p50)} / ${ms(s.ms.p99)} ms${s.planningMs === null ? '' : ` (plan ${ms(s.planningMs)} + exec ${ms(s.executionMs ?? NaN)})`}`,
      ),
      cell(
        d.design,
        name,
        (s) =>
          `${s.sharedHit ?? '-'} / ${s.sharedRead ?? '-'}${s.recordsPerSecond === undefined ? '' : `; ${s.recordsPerSecond} records/s`}`,
      ),
    ]),
  ]);
  const headers = [
    'statement',
    ...result.designs.flatMap((d) => [`${d.design} p50 / p99`, `${d.design} buffers hit / read`]),
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
    return `${d.design}: seed ${pairs(d.seedSeconds, ' s')}; ${pairs(d.sizes)}; ${floor}${cpu}`;
  });
  const waits = result.designs.flatMap((d) =>
    d.statements.flatMap((s) => (s.waits === undefined ? [] : [`${d.design}, ${s.name}: ${describeWaits(s.waits)}`])),
  );
  const schedules = result.designs.flatMap((d) =>
    d.statements.flatMap((s) =>
      s.schedule === undefined ? [] : [`${d.design}, ${s.name}: ${describeSchedule(s.schedule)}`],
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
    ...(waits.length === 0 ? [] : ['What the slowest samples of a second, watched pass waited for:', ...waits]),
    ...(schedules.length === 0
      ? []
      : ["The timed samples' backend on and off the CPU, as the kernel counted it (means per sample):", ...schedules]),
  ].join('\n');
};
