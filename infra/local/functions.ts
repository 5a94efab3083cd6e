import { Worker } from 'node:worker_threads';
import type { APIGatewayProxyResult } from 'aws-lambda';
import type { ProxyHandler } from './gateway.ts';
import type { Invocation } from './function-worker.ts';

type Reply = { id: number; result: APIGatewayProxyResult } | { id: number; error: { name: string; message: string; stack?: string } } | { ready: true };

export interface LocalFunction {
  /** Invokes the function, like Lambda's Invoke: the event and the context's name, id and time left. */
  readonly handler: ProxyHandler;
  close(): Promise<void>;
}

/**
 * Starts one function in a worker thread with `env` as its whole environment (the handler file
 * runs unchanged, TypeScript through tsx), resolving once its module has loaded, like a cold
 * start; a module that throws at load (a configuration error) rejects.
 *
 * @example
 * ```ts
 * const fn = await startFunction('/repo/functions/box-save.ts', { ...process.env, AWS_ACCESS_KEY_ID: key, AWS_SECRET_ACCESS_KEY: secret });
 * const result = await fn.handler(event, context);
 * ```
 */
export const startFunction = async (entry: string, env: Readonly<Record<string, string | undefined>>): Promise<LocalFunction> => {
  const worker = new Worker(new URL('./function-worker.ts', import.meta.url), {
    workerData: { entry },
    env: { ...env },
    execArgv: ['--import', 'tsx'],
  });
  const pending = new Map<number, { resolve: (result: APIGatewayProxyResult) => void; reject: (error: Error) => void }>();
  let next = 0;
  let failure: Error | undefined;
  const fail = (error: Error) => {
    failure = error;
    for (const call of pending.values()) call.reject(error);
    pending.clear();
  };
  await new Promise<void>((resolve, reject) => {
    worker.on('message', (reply: Reply) => {
      if ('ready' in reply) return resolve();
      const call = pending.get(reply.id);
      pending.delete(reply.id);
      if ('result' in reply) call?.resolve(reply.result);
      else call?.reject(Object.assign(new Error(reply.error.message), { name: reply.error.name, stack: reply.error.stack }));
    });
    worker.once('error', (error) => {
      fail(error);
      reject(error);
    });
    worker.once('exit', (code) => {
      const error = new Error(`The function ${entry} exited (code ${code})`);
      fail(error);
      reject(error);
    });
  });
  worker.unref();
  return {
    handler: (event, context) =>
      new Promise((resolve, reject) => {
        if (failure !== undefined) return reject(failure);
        const id = (next += 1);
        pending.set(id, { resolve, reject });
        const invocation: Invocation = { id, event, functionName: context.functionName, requestId: context.awsRequestId, remainingMs: context.getRemainingTimeInMillis() };
        worker.postMessage(invocation);
      }),
    close: async () => {
      await worker.terminate();
    },
  };
};
