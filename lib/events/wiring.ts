import { Logger } from '@aws-lambda-powertools/logger';
import { ConfigError } from '../config.ts';
import { awsClientOptions, type Environment, type Runtime } from '../runtime.ts';
import { createEventBridgeBus } from './bus.ts';
import { relayMetrics } from './metrics.ts';
import { makeRelay, type RelayReport } from './relay.ts';

const logger = new Logger();
const relays = new WeakMap<Runtime, ReturnType<typeof makeRelay>>();

const buildRelay = (runtime: Runtime, env: Environment) => {
  const { busName, endpoint } = runtime.config.events;
  if (busName === undefined)
    throw new ConfigError('Invalid configuration: EVENT_BUS_NAME is required by the event relay');
  const bus = createEventBridgeBus({
    busName,
    ...(endpoint === undefined ? {} : { endpoint }),
    ...awsClientOptions(env),
  });
  return makeRelay({ db: runtime.db(), bus, retentionDays: runtime.config.eventsRetentionDays, logger });
};

/**
 * One run of the event relay in a function (the same configuration as every function, plus
 * `EVENT_BUS_NAME`): its metrics written as EMF for the stuck-event alarm
 * (`POWERTOOLS_METRICS_NAMESPACE`; none when `POWERTOOLS_METRICS_DISABLED` is `true`), a stuck
 * event logged as an error with its id.
 *
 * @example
 * ```ts
 * export const task = defineTask({ id: 'EventRelay', dataApi: STATEMENT, run: runRelay });
 * ```
 */
export const runRelay = async (runtime: Runtime, env: Environment): Promise<RelayReport> => {
  let relay = relays.get(runtime);
  if (relay === undefined) relays.set(runtime, (relay = buildRelay(runtime, env)));
  const report = await relay.run();
  // Locally (POWERTOOLS_METRICS_DISABLED, as Powertools Metrics reads it) there is no CloudWatch to read the line.
  if (env.POWERTOOLS_METRICS_DISABLED !== 'true')
    process.stdout.write(`${relayMetrics(env.POWERTOOLS_METRICS_NAMESPACE ?? 'cargo', report, Date.now())}\n`);
  if (report.yielded === 'busy')
    logger.info('another run of the relay holds its lease: this run left the outbox to it', { ...report });
  else if (report.stuck === undefined)
    logger[report.published + report.pruned > 0 || report.yielded !== undefined ? 'info' : 'debug']('events relayed', {
      ...report,
    });
  else logger.error('event stuck: not published after every attempt; later events wait for it', { ...report });
  return report;
};
