import type { ImportCounts } from './locations-api.ts';
import type { Batch, Progress } from './locations-import.ts';

const number = (n: number): string => String(n);
const countsText = (c: ImportCounts): string =>
  `${number(c.created)} created, ${number(c.changed)} changed, ${number(c.unchanged)} unchanged`;

export const summaryText = (c: ImportCounts): string => countsText(c);

const linesOf = (batch: Batch): string => `lines ${batch.lines[0]?.line}-${batch.lines.at(-1)?.line}`;

/**
 * What an import shows on standard error while it runs: on a terminal one bar redrawn in place
 * (`[############------------------] 40/100 batches, 20000 of 50000 locations`), otherwise (a log, a CI
 * job) one plain line per batch with its counts.
 */
export const progressOn = (stream: NodeJS.WriteStream, totalLocations: number): Progress => {
  const terminal = stream.isTTY === true;
  let done = 0;
  let drawn = false;
  const draw = (batches: number, of: number) => {
    const width = 30;
    const filled = Math.round((done / totalLocations) * width);
    stream.write(
      `\r\x1b[K[${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${batches}/${of} batches, ${number(done)} of ${number(totalLocations)} locations`,
    );
    drawn = true;
  };
  const clear = () => {
    if (drawn) stream.write('\r\x1b[K');
    drawn = false;
  };
  return {
    reading(count) {
      if (terminal) stream.write(`\r\x1b[Kreading the register: ${number(count)} locations`);
      drawn = terminal;
    },
    batch(batch, of, outcome) {
      done += batch.lines.length;
      if (terminal) return draw(batch.number, of);
      const what = outcome === 'unchanged' ? 'all registered as they are, not sent' : countsText(outcome);
      stream.write(`batch ${batch.number}/${of} (${linesOf(batch)}): ${what}\n`);
    },
    retry(batch, reason, waitMs) {
      clear();
      stream.write(
        `batch ${batch.number} (${linesOf(batch)}): ${reason}, trying again in ${Math.ceil(waitMs / 1000)} s\n`,
      );
    },
    end: clear,
  };
};
