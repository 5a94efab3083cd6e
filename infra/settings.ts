import * as z from 'zod';
import { ConfigError, loadConfig } from '../lib/config.ts';
import { ThrottlingBurstLimit, ThrottlingRateLimit } from './throttling.ts';

/** Variables of `lib/config.ts` Ops may set through `functionEnvironment`; the others are the stack's to set. */
export const TUNABLE_VARIABLES = [
  'BOX_NO_PATTERN',
  'ZONGPAI_NO_PATTERN',
  'LOCATION_CODE_PATTERN',
  'ITEM_CODE_MAX_LENGTH',
  'ORDER_NO_MAX_LENGTH',
  'QUANTITY_MAX',
  'BOX_ITEMS_MAX',
  'LOCATION_RECORDS_MAX',
  'ENFORCE_ERP_PLAN',
  'LOCATIONS_REGISTERED_ONLY',
  'IDEMPOTENCY_TTL_HOURS',
  'LOCATION_HISTORY_MONTHS',
  'EVENTS_RETENTION_DAYS',
  'GS1_COMPANY_PREFIX',
  'SSCC_EXTENSION_DIGIT',
  'ZONGPAI_MIXING',
] as const;

/** CloudWatch Logs accepts only these retention periods. */
const RETENTION_DAYS = [
  1, 3, 5, 7, 14, 30, 60, 90, 120, 150, 180, 365, 400, 545, 731, 1096, 1827, 2192, 2557, 2922, 3288, 3653,
];

const number = (min: number, max: number, fallback: number) => z.coerce.number().min(min).max(max).default(fallback);
const integer = (min: number, max: number, fallback: number) =>
  z.coerce.number().int().min(min).max(max).default(fallback);
const bool = (fallback: boolean) =>
  z.preprocess((v) => (typeof v === 'boolean' ? String(v) : v), z.stringbool()).default(fallback);
const arn = (pattern: RegExp, what: string) => z.string().regex(pattern, `must be the full ARN of ${what}`).optional();
/** `-c key='{"A":"1"}'` arrives as a string, `cdk.json` gives an object: both are accepted. */
const jsonObject = <T extends z.ZodType>(schema: T) =>
  z.preprocess((value, ctx) => {
    if (typeof value !== 'string') return value;
    try {
      return JSON.parse(value) as unknown;
    } catch {
      ctx.issues.push({ code: 'custom', message: 'must be a JSON object', input: value });
      return z.NEVER;
    }
  }, schema);

/** Context keys (camelCase) and their schemas; the environment variable is `CARGO_` + UPPER_SNAKE of the key. */
const SettingsSchema = z
  .object({
    stackName: z
      .string()
      .regex(/^[A-Za-z][A-Za-z0-9-]{0,127}$/)
      .default('CargoBoxingService'),
    stage: z
      .string()
      .regex(/^[A-Za-z0-9_]{1,64}$/)
      .default('prod'),
    servicePrefix: z.string().default('cargo'),
    erpBoxView: z.string().default('erp.v_box_info'),
    databaseName: z.string().default('cargo'),
    clusterArn: arn(/^arn:aws[a-z-]*:rds:[a-z0-9-]+:\d{12}:cluster:[a-z][a-z0-9-]*$/, 'an Aurora cluster'),
    // The six random characters Secrets Manager appends must be there: IAM matches the whole ARN.
    secretArn: arn(
      /^arn:aws[a-z-]*:secretsmanager:[a-z0-9-]+:\d{12}:secret:.+-[A-Za-z0-9]{6}$/,
      'a secret, with its 6-character suffix',
    ),
    userPoolId: z
      .string()
      .regex(/^[a-z]{2}(-[a-z]+)+-\d_[A-Za-z0-9]+$/)
      .optional(),
    minCapacity: number(0, 256, 0).refine((v) => v * 2 === Math.round(v * 2), 'must be a multiple of 0.5'),
    maxCapacity: number(1, 256, 4).refine((v) => v * 2 === Math.round(v * 2), 'must be a multiple of 0.5'),
    autoPauseMinutes: integer(5, 1440, 30),
    deletionProtection: bool(true),
    apiGatewayCloudWatchRole: bool(false),
    backupRetentionDays: integer(1, 35, 7),
    throttlingRateLimit: ThrottlingRateLimit,
    throttlingBurstLimit: ThrottlingBurstLimit,
    logRetentionDays: z.coerce
      .number()
      .refine((v) => RETENTION_DAYS.includes(v), `must be one of ${RETENTION_DAYS.join(', ')}`)
      .default(90),
    logLevel: z.enum(['DEBUG', 'INFO', 'WARN', 'ERROR']).default('INFO'),
    alarmEmail: z.email().optional(),
    eventBusName: z
      .string()
      .regex(/^[A-Za-z0-9._\-/]{1,256}$/, 'must be the name of an event bus')
      .optional(),
    eventArchiveDays: z.coerce.number().int().min(0).max(3650).optional(),
    erpWebhookUrl: z.url({ protocol: /^https$/, error: 'must be an https:// URL' }).optional(),
    erpWebhookSecretArn: arn(
      /^arn:aws[a-z-]*:secretsmanager:[a-z0-9-]+:\d{12}:secret:.+-[A-Za-z0-9]{6}$/,
      'a secret, with its 6-character suffix',
    ),
    erpWebhookHeader: z
      .string()
      .regex(/^[A-Za-z0-9-]{1,256}$/, 'must be an HTTP header name')
      .default('Authorization'),
    functionEnvironment: jsonObject(
      z.partialRecord(z.enum(TUNABLE_VARIABLES), z.union([z.string(), z.number(), z.boolean()])),
    ).default({}),
  })
  .refine((s) => (s.clusterArn === undefined) === (s.secretArn === undefined), {
    message: 'clusterArn and secretArn go together',
    path: ['clusterArn'],
  })
  .refine((s) => s.erpWebhookUrl === undefined || s.erpWebhookSecretArn !== undefined, {
    message: 'erpWebhookUrl needs erpWebhookSecretArn (the secret its requests carry)',
    path: ['erpWebhookSecretArn'],
  })
  .refine((s) => s.minCapacity <= s.maxCapacity, { message: 'must not exceed maxCapacity', path: ['minCapacity'] })
  .transform(
    (s) =>
      ({
        /** CloudFormation stack name; also the Powertools service name and the metric namespace. */
        stackName: s.stackName,
        /** API Gateway stage: the first path segment of the URL, `https://…/{stage}/v1/…`. */
        stage: s.stage,
        /** The SPEC's `{service_prefix}` path segment (`SERVICE_PREFIX`). */
        servicePrefix: s.servicePrefix,
        /** The ERP view of box plans (`ERP_BOX_VIEW`). */
        erpBoxView: s.erpBoxView,
        /** Database the functions use (`DB_NAME`); created in a new cluster, expected in an existing one. */
        databaseName: s.databaseName,
        /** An existing Aurora cluster with the Data API on, and its secret; when unset the stack creates both. */
        ...(s.clusterArn && s.secretArn
          ? { existingDatabase: { clusterArn: s.clusterArn, secretArn: s.secretArn } }
          : {}),
        /** An existing Cognito user pool; when unset the stack creates one with its groups and app client. */
        ...(s.userPoolId ? { userPoolId: s.userPoolId } : {}),
        /** Aurora Serverless v2 capacity range in ACUs; a minimum of 0 lets the cluster pause when idle. */
        minCapacity: s.minCapacity,
        maxCapacity: s.maxCapacity,
        /** Idle time before a cluster with minimum capacity 0 pauses. */
        autoPauseMinutes: s.autoPauseMinutes,
        /** Protects the cluster and the user pool against deletion (and stack deletion). */
        deletionProtection: s.deletionProtection,
        backupRetentionDays: s.backupRetentionDays,
        /** Stage-wide API Gateway throttling: steady requests per second and burst. */
        throttlingRateLimit: s.throttlingRateLimit,
        throttlingBurstLimit: s.throttlingBurstLimit,
        /**
         * Sets the region's API Gateway CloudWatch Logs role (one per account and region), which the
         * stage's access log needs: only where none is set yet, since it replaces the one that is.
         */
        apiGatewayCloudWatchRole: s.apiGatewayCloudWatchRole,
        /** Retention of the function and access log groups. */
        logRetentionDays: s.logRetentionDays,
        /** `POWERTOOLS_LOG_LEVEL` and Lambda's application log level. */
        logLevel: s.logLevel,
        /** An e-mail address subscribed to the alarm topic (confirmation mail is sent on deploy). */
        ...(s.alarmEmail ? { alarmEmail: s.alarmEmail } : {}),
        /** An existing EventBridge bus the relay publishes to, by name; when unset the stack creates one. */
        ...(s.eventBusName ? { eventBusName: s.eventBusName } : {}),
        /** Days the bus's archive keeps the service's events for replay (0: forever); unset: no archive. */
        ...(s.eventArchiveDays === undefined ? {} : { eventArchiveDays: s.eventArchiveDays }),
        /** The ERP's HTTPS webhook (an EventBridge API destination) and the secret sent in `header` with every event. */
        ...(s.erpWebhookUrl && s.erpWebhookSecretArn
          ? { erpWebhook: { url: s.erpWebhookUrl, secretArn: s.erpWebhookSecretArn, header: s.erpWebhookHeader } }
          : {}),
        /** Extra function environment: the rule bounds and patterns of `lib/config.ts`. */
        functionEnvironment: Object.fromEntries(
          Object.entries(s.functionEnvironment).map(([k, v]) => [k, String(v)]),
        ) as Readonly<Record<string, string>>,
      }) as const,
  );

/**
 * Deployment settings: everything Ops may choose at `cdk deploy`, parsed and validated in one place.
 *
 * Each setting is read from CDK context first (`-c stage=prod` or `cdk.json`), then from an
 * environment variable (`CARGO_STAGE`), then falls back to its default. A bad value fails the
 * synthesis with the names of every bad setting, before anything reaches CloudFormation.
 */
export type Settings = z.output<typeof SettingsSchema>;

/** `throttlingRateLimit` → `CARGO_THROTTLING_RATE_LIMIT`. */
export const environmentName = (key: string): string => `CARGO_${key.replace(/[A-Z]/g, (c) => `_${c}`).toUpperCase()}`;

/** Thrown when a setting is unusable; names every bad setting with its context key and variable. */
export class SettingsError extends Error {
  override readonly name = 'SettingsError';
}

/**
 * Reads every setting from `context` (CDK context lookup), then `env`, then the defaults, and
 * checks the function environment with the functions' own {@link loadConfig}, so a bad pattern
 * fails here rather than at the first cold start.
 *
 * @example
 * ```ts
 * const settings = readSettings((key) => app.node.tryGetContext(key), process.env);
 * settings.stage; // 'prod'
 * ```
 */
export const readSettings = (
  context: (key: string) => unknown,
  env: Record<string, string | undefined> = {},
): Settings => {
  const raw = Object.fromEntries(
    Object.keys(SettingsSchema.in.shape)
      .map((key) => [key, context(key) ?? env[environmentName(key)]])
      .filter(([, v]) => v !== undefined && v !== ''),
  );
  const parsed = SettingsSchema.safeParse(raw);
  if (!parsed.success) {
    const problems = parsed.error.issues.map(
      (i) => `${String(i.path[0])} (${environmentName(String(i.path[0]))}): ${i.message}`,
    );
    throw new SettingsError(`Invalid settings: ${problems.join('; ')}`);
  }
  const settings = parsed.data;
  try {
    loadConfig({
      SERVICE_PREFIX: settings.servicePrefix,
      ERP_BOX_VIEW: settings.erpBoxView,
      DB_NAME: settings.databaseName,
      ...settings.functionEnvironment,
    });
  } catch (error) {
    if (error instanceof ConfigError)
      throw new SettingsError(`${error.message} (servicePrefix, erpBoxView, databaseName or functionEnvironment)`);
    throw error;
  }
  return settings;
};
