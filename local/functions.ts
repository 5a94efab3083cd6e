import { pathToFileURL } from 'node:url';
import type { APIGatewayProxyResult } from 'aws-lambda';
import { lambdaHandler, taskHandler, type RouteSpec, type TaskSpec } from '../lib/http/route.ts';
import type { Environment } from '../lib/runtime.ts';
import type { ProxyHandler } from './gateway.ts';

export interface LocalFunction {
  /** Invokes the function, like Lambda's Invoke: the event and the context's name, id and time left. */
  readonly handler: ProxyHandler;
}

/**
 * Builds one function from its handler file's declaration (a route `spec` or a `task`) and `env`
 * as its whole environment: its configuration and the credentials of its role. This is what the
 * file's own `handler` export does with `process.env` in Lambda; here every function gets an
 * environment object of its own, so its Data API and EventBridge clients sign with its key and no
 * other function's, and the emulators refuse what the stack does not grant it. Like a cold start,
 * the runtime is built at the first invocation, and a bad setting fails that invocation.
 *
 * @example
 * ```ts
 * const fn = await startFunction('/repo/functions/box-save.ts', { ...env, AWS_ACCESS_KEY_ID: key, AWS_SECRET_ACCESS_KEY: secret });
 * const result = await fn.handler(event, context);
 * ```
 */
export const startFunction = async (entry: string, env: Environment): Promise<LocalFunction> => {
  const module = (await import(pathToFileURL(entry).href)) as {
    spec?: RouteSpec<any, any, any>;
    task?: TaskSpec<unknown>;
  };
  if (module.spec !== undefined) return { handler: lambdaHandler(module.spec, { ...env }) as ProxyHandler };
  if (module.task !== undefined) {
    const run = taskHandler(module.task, { ...env });
    return { handler: async () => (await run()) as unknown as APIGatewayProxyResult };
  }
  throw new Error(`${entry} declares neither a route spec nor a task`);
};
