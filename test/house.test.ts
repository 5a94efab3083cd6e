import { fileURLToPath } from 'node:url';
import { cruise, type ICruiseResult, type IConfiguration } from 'dependency-cruiser';
import { describe, expect, it } from 'vitest';

/**
 * The house check: the rules of .dependency-cruiser.mjs (the rooms of docs/ARCHITECTURE.md) over
 * every room. A failure names each offending import, its rule, and for a circle the whole circle.
 */
const ROOT = fileURLToPath(new URL('../', import.meta.url));
const ROOMS = ['functions', 'lib', 'generated', 'infra', 'local', 'ops', 'web', 'tools', 'bench', 'test'];

const { default: config } = (await import(new URL('../.dependency-cruiser.mjs', import.meta.url).href)) as {
  default: Required<Pick<IConfiguration, 'forbidden' | 'options'>>;
};

describe('the house (docs/ARCHITECTURE.md, .dependency-cruiser.mjs)', () => {
  it('has no import circle and no import out of its room', async () => {
    const { forbidden, options } = config;
    const { output } = await cruise(
      ROOMS,
      { ...options, baseDir: ROOT, validate: true, ruleSet: { forbidden }, outputType: 'json' },
      options.enhancedResolveOptions,
    );
    const result = (typeof output === 'string' ? JSON.parse(output) : output) as ICruiseResult;
    const offending = result.summary.violations.map(
      (violation) =>
        `${violation.rule.name}: ${violation.from} → ${violation.to}` +
        (violation.cycle === undefined
          ? ''
          : ` (circle: ${[violation.from, ...violation.cycle.map((step) => step.name)].join(' → ')})`),
    );
    expect(offending).toEqual([]);
    expect(result.summary.totalCruised).toBeGreaterThan(400);
  });
});
