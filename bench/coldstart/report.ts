import { kb, ms } from '../support/stats.ts';
import { table } from '../support/table.ts';
import type { ColdStartResult } from './run.ts';
import { TARGET_RATIO } from './run.ts';
import { GROUPS } from './weights.ts';

const ratio = (value: number) => `${value.toFixed(2)}×`;

/**
 * The cold-start tables: size and import time against the floor and the naive stack, then
 * what each bundle is made of.
 *
 * @example
 * ```ts
 * console.log(renderColdStart(result));
 * ```
 */
export const renderColdStart = (result: ColdStartResult): string => {
  const rows = result.bundles.map((b) => [
    b.name,
    kb(b.bytes),
    ratio(b.sizeVsFloor),
    `${ms(b.importMs)} ms`,
    `${ms(b.importPlainMs)} ms`,
    ratio(b.importVsFloor),
    ratio(b.importVsNaive),
    b.met === undefined ? '(reference)' : b.met ? 'yes' : 'NO',
  ]);
  const weights = result.bundles.map((b) => [
    b.name,
    ...GROUPS.map((g) => (b.weights.byGroup[g] === 0 ? '–' : kb(b.weights.byGroup[g]))),
    b.weights.identicalToCdk ? 'yes' : 'no',
  ]);
  const missed = result.bundles.filter((b) => b.met === false).map((b) => b.name);
  return [
    `Cold start on Node ${result.node}: bundles from ${result.source}; median of ${result.runs} fresh processes each, taken in turns`,
    '',
    table(
      [
        'bundle',
        'index.mjs',
        'size / floor',
        'import (deployed)',
        'import (no source maps)',
        'import / floor',
        'import / naive',
        `≤ ${TARGET_RATIO} × floor`,
      ],
      rows,
    ),
    '',
    "'deployed' runs with NODE_OPTIONS=--enable-source-maps, as the stack sets it. Ratios use the deployed figure.",
    '',
    'What each bundle carries (esbuild metafile, bytes of minified output):',
    '',
    table(['bundle', ...GROUPS, 'metafile build = CDK bytes'], weights),
    '',
    `Target (every function ≤ ${TARGET_RATIO} × the floor in size and import time): ${result.met ? 'met' : `MISSED by ${missed.join(', ')}`}`,
    ...(result.baseline === undefined ? [] : ['', renderBaseline(result)]),
  ].join('\n');
};

/** Each bundle against the same bundle of the baseline checkout, both timed in the same turns. */
const renderBaseline = (result: ColdStartResult): string => {
  const compared = result.bundles.filter((b) => b.baseline !== undefined);
  const rows = compared.map((b) => [
    b.name,
    kb(b.baseline?.bytes ?? Number.NaN),
    kb(b.bytes),
    (b.bytes / (b.baseline?.bytes ?? Number.NaN)).toFixed(3),
    `${ms(b.baseline?.importMs ?? Number.NaN)} ms`,
    `${ms(b.importMs)} ms`,
    (b.importMs / (b.baseline?.importMs ?? Number.NaN)).toFixed(3),
  ]);
  const { checkout, commit } = result.baseline ?? { checkout: '' };
  return [
    `Against the baseline, ${checkout}${commit === undefined ? '' : ` at ${commit}`} (BENCH_COLD_BASELINE), imported in the same turns:`,
    '',
    table(['bundle', 'baseline', 'this', 'size ratio', 'baseline import', 'this import', 'import ratio'], rows),
  ].join('\n');
};
