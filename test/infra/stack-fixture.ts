import { App } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { readFileSync } from 'node:fs';
import { CargoStack } from '../../infra/stack.ts';
import { readSettings } from '../../infra/settings.ts';

/** The feature flags of cdk.json, so the tests synthesize what `cdk synth` does. */
const cdkJsonContext = (
  JSON.parse(readFileSync(new URL('../../cdk.json', import.meta.url), 'utf8')) as { context: Record<string, unknown> }
).context;

/**
 * Synthesizes the stack as infra/app.ts does, with `context` as if given by `-c key=value`,
 * but without esbuild: template tests stay fast and do not need every handler file.
 */
export const synthesize = (context: Record<string, unknown> = {}) => {
  const app = new App({ context: { ...cdkJsonContext, ...context } });
  const settings = readSettings((key) => app.node.tryGetContext(key));
  const stack = new CargoStack(app, settings.stackName, { settings, bundle: false });
  return { app, stack, settings, template: Template.fromStack(stack) };
};

const shared = new Map<string, ReturnType<typeof synthesize>>();

/**
 * The synthesis of `context`, made once per worker and shared by the test files that only read
 * it (its template, its constructs, its cloud assembly): the infra project shares modules between
 * files (vitest.config.ts), and each synthesis of the whole stack takes seconds. A test that adds
 * to the app or the stack (a plugin, an aspect) takes a {@link synthesize} of its own.
 */
export const sharedSynthesis = (context: Record<string, unknown> = {}): ReturnType<typeof synthesize> => {
  const key = JSON.stringify(Object.entries(context).sort(([a], [b]) => a.localeCompare(b)));
  const made = shared.get(key) ?? synthesize(context);
  shared.set(key, made);
  return made;
};

/** Resources of one type, by logical id. */
export const resourcesOf = (
  template: Template,
  type: string,
): Record<string, { Properties: Record<string, any>; DependsOn?: string[] }> =>
  template.findResources(type) as Record<string, { Properties: Record<string, any>; DependsOn?: string[] }>;
