import { App } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { readFileSync } from 'node:fs';
import { CargoStack } from '../../infra/stack.ts';
import { readSettings } from '../../infra/settings.ts';
import { loadRoutes } from '../../infra/routes.ts';

// The stack's functions and grants come from the discovered declarations.
await loadRoutes();

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

/** Resources of one type, by logical id. */
export const resourcesOf = (
  template: Template,
  type: string,
): Record<string, { Properties: Record<string, any>; DependsOn?: string[] }> =>
  template.findResources(type) as Record<string, { Properties: Record<string, any>; DependsOn?: string[] }>;
