import { pathToFileURL } from 'node:url';
import { parentPort, workerData } from 'node:worker_threads';
import type { APIGatewayProxyEvent } from 'aws-lambda';
import type { ProxyHandler } from './gateway.ts';
import { lambdaContext } from './gateway-event.ts';

/**
 * One function's runtime, in a worker thread of its own: its own `process.env` (configuration and
 * the credentials of its role, as Lambda gives each function) and its own module instances, so
 * its Data API client signs with its key and no other function's.
 */
export interface Invocation {
  readonly id: number;
  readonly event: APIGatewayProxyEvent;
  readonly functionName: string;
  readonly requestId: string;
  readonly remainingMs: number;
}

const { entry } = workerData as { entry: string };
const port = parentPort;
if (port === null) throw new Error('function-worker.ts runs in a worker thread');
const { handler } = (await import(pathToFileURL(entry).href)) as { handler: ProxyHandler };

port.on('message', (invocation: Invocation) => {
  handler(invocation.event, lambdaContext(invocation.functionName, invocation.requestId, invocation.remainingMs)).then(
    (result) => port.postMessage({ id: invocation.id, result }),
    (error: unknown) => {
      const { name, message, stack } = error instanceof Error ? error : new Error(String(error));
      port.postMessage({ id: invocation.id, error: { name, message, stack } });
    },
  );
});
port.postMessage({ ready: true });
