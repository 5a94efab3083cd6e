import { Logger } from '@aws-lambda-powertools/logger';
import { loadConfig, type Config } from './config.ts';
import { createDataApiDb } from './db/default.ts';
import { guardErpView } from './db/erp-view.ts';
import type { Db } from './db/types.ts';
import { makeFields, type Fields } from './rules/fields.ts';

/** An environment as a function receives it: Lambda's `process.env`, or an object built by the local runtime or a test. */
export type Environment = Readonly<Record<string, string | undefined>>;

/**
 * What a function is built from: its configuration, the identifier rules, its logger and its
 * Data API adapter. Built from an environment object, never from `process.env` directly: only a
 * handler file's module scope hands `process.env` in (see `lambdaHandler` in lib/http/route.ts).
 */
export interface Runtime {
  /** The environment it was built from (for the few settings that are not configuration, e.g. API_ROUTES). */
  readonly env: Environment;
  readonly config: Config;
  readonly fields: Fields;
  readonly logger: Logger;
  /**
   * The Data API adapter (created on first use, then reused across invocations); a statement that
   * cannot read the ERP view answers 503 ERP_VIEW_UNAVAILABLE.
   */
  db(): Db;
}

/**
 * The region and credentials an AWS client of the function uses: those its environment names
 * (Lambda and the local runtime set both), else the SDK's own chain.
 *
 * @example
 * ```ts
 * new EventBridgeClient({ ...awsClientOptions(runtime.env) });
 * ```
 */
export const awsClientOptions = (env: Environment) => ({
  ...(env.AWS_REGION ? { region: env.AWS_REGION } : {}),
  ...(env.AWS_ACCESS_KEY_ID && env.AWS_SECRET_ACCESS_KEY
    ? {
        credentials: {
          accessKeyId: env.AWS_ACCESS_KEY_ID,
          secretAccessKey: env.AWS_SECRET_ACCESS_KEY,
          ...(env.AWS_SESSION_TOKEN ? { sessionToken: env.AWS_SESSION_TOKEN } : {}),
        },
      }
    : {}),
});

/**
 * Builds a runtime from an environment; throws `ConfigError` naming every bad variable.
 *
 * @example
 * ```ts
 * const runtime = makeRuntime({ DB_CLUSTER_ARN: arn, DB_SECRET_ARN: secret, QUANTITY_MAX: '500' });
 * runtime.config.quantityMax; // 500
 * ```
 */
export const makeRuntime = (env: Environment): Runtime => {
  const config = loadConfig(env);
  let db: Db | undefined;
  return {
    env,
    config,
    fields: makeFields(config),
    logger: new Logger(),
    db: () => (db ??= guardErpView(createDataApiDb(config, awsClientOptions(env)), config.erpBoxView)),
  };
};
