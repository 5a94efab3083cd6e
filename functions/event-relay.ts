import { runRelay } from '../lib/events/wiring.ts';
import { defineTask, STATEMENT, taskHandler } from '../lib/http/route.ts';

/**
 * Publishes the outbox to the EventBridge bus, in sequence order, at least once; run every
 * minute by the stack's schedule and every few seconds by `npm start`. It reads the outbox and
 * marks what it published one statement at a time (it is not a request), each holding its lease,
 * so that runs that overlap publish one at a time.
 */
export const task = defineTask({ id: 'EventRelay', dataApi: STATEMENT, databaseUser: 'maintenance', run: runRelay });

export const handler = taskHandler(task, process.env);
