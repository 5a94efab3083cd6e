import * as z from 'zod/mini';

const sqlIdentifier = /^[a-z_][a-z0-9_]{0,62}(\.[a-z_][a-z0-9_]{0,62})?$/;

const regexSource = z.string().check(
  z.refine((source) => {
    try {
      new RegExp(source);
      return true;
    } catch {
      return false;
    }
  }, 'must be a valid regular expression'),
);

const positiveInt = (fallback: number, max: number) =>
  z.prefault(
    z.pipe(
      z.string().check(z.regex(/^\d+$/)),
      z.pipe(z.transform(Number), z.int().check(z.minimum(1), z.maximum(max))),
    ),
    String(fallback),
  );

const flag = (fallback: boolean) =>
  z.prefault(
    z.pipe(
      z.string().check(z.regex(/^(true|false)$/)),
      z.transform((v) => v === 'true'),
    ),
    String(fallback),
  );

/** One environment variable: its schema and, for the message that refuses a bad value, what it accepts. */
const variable = <S extends z.ZodMiniType>(schema: S, allowed: string) => ({ schema, allowed });

const wholeNumbers = (max: number) => `allowed are whole numbers from 1 to ${String(max)}`;
const PATTERN = 'allowed is a JavaScript regular expression';
const ARN = 'allowed is an ARN';

/** Every variable the functions read, declared once. */
const VARIABLES = {
  SERVICE_PREFIX: variable(
    z.prefault(z.string().check(z.regex(/^[a-z0-9-]{1,32}$/)), 'cargo'),
    "allowed are 1-32 of a-z, 0-9 and '-'",
  ),
  ERP_BOX_VIEW: variable(
    z.prefault(z.string().check(z.regex(sqlIdentifier)), 'erp.v_box_info'),
    'allowed is a lower-case SQL name, schema.name or name (a-z, 0-9, _)',
  ),
  BOX_NO_PATTERN: variable(z.prefault(regexSource, '^[A-Z0-9-]{4,32}$'), PATTERN),
  ZONGPAI_NO_PATTERN: variable(z.prefault(regexSource, '^[A-Z0-9-]{4,32}$'), PATTERN),
  LOCATION_CODE_PATTERN: variable(z.prefault(regexSource, '^[A-Z0-9-]{2,32}$'), PATTERN),
  ITEM_CODE_MAX_LENGTH: variable(positiveInt(64, 1000), wholeNumbers(1000)),
  ORDER_NO_MAX_LENGTH: variable(positiveInt(64, 1000), wholeNumbers(1000)),
  QUANTITY_MAX: variable(positiveInt(99_999, 2_000_000_000), wholeNumbers(2_000_000_000)),
  BOX_ITEMS_MAX: variable(positiveInt(500, 5000), wholeNumbers(5000)),
  LOCATION_RECORDS_MAX: variable(positiveInt(500, 5000), wholeNumbers(5000)),
  ENFORCE_ERP_PLAN: variable(flag(true), 'allowed are true or false'),
  // Scans, backlogs and transfers only at locations of the location register (LOCATION_NOT_FOUND otherwise).
  LOCATIONS_REGISTERED_ONLY: variable(flag(false), 'allowed are true or false'),
  IDEMPOTENCY_TTL_HOURS: variable(positiveInt(24, 24 * 30), wholeNumbers(24 * 30)),
  // Whole months of location history kept (a month is dropped once all of it is older); 100 years at most.
  LOCATION_HISTORY_MONTHS: variable(positiveInt(25, 1200), wholeNumbers(1200)),
  // Days a published event stays in the outbox (and the feed) before the relay prunes it; 10 years at most.
  EVENTS_RETENTION_DAYS: variable(positiveInt(7, 3650), wholeNumbers(3650)),
  // The EventBridge bus the relay publishes to (name or ARN), and locally the PutEvents stand-in of npm start.
  EVENT_BUS_NAME: variable(
    z.optional(
      z.string().check(z.regex(/^(arn:aws[a-z-]*:events:[a-z0-9-]+:\d{12}:event-bus\/)?[A-Za-z0-9._\-/]{1,256}$/)),
    ),
    'allowed is an event bus name or ARN',
  ),
  EVENTBRIDGE_ENDPOINT: variable(
    z.optional(z.string().check(z.regex(/^https?:\/\/\S+$/))),
    'allowed is an http:// or https:// URL',
  ),
  DB_CLUSTER_ARN: variable(z.optional(z.string().check(z.minLength(1))), ARN),
  DB_SECRET_ARN: variable(z.optional(z.string().check(z.minLength(1))), ARN),
  DB_NAME: variable(
    z.prefault(z.string().check(z.regex(/^[A-Za-z_][A-Za-z0-9_]{0,62}$/)), 'cargo'),
    'allowed is a database name (letters, digits and _, not starting with a digit)',
  ),
  DATA_API_ENDPOINT: variable(
    z.optional(z.string().check(z.regex(/^https?:\/\/\S+$/))),
    'allowed is an http:// or https:// URL',
  ),
  DB_RETRY_BUDGET_MS: variable(positiveInt(20_000, 120_000), wholeNumbers(120_000)),
  // SSCC numbers for zongpais (POST /v1/zongpai with sscc): the company's GS1 prefix and the extension digit before it.
  GS1_COMPANY_PREFIX: variable(
    z.optional(z.string().check(z.regex(/^\d{7,10}$/))),
    'allowed is a GS1 company prefix of 7-10 digits',
  ),
  SSCC_EXTENSION_DIGIT: variable(z.prefault(z.string().check(z.regex(/^\d$/)), '0'), 'allowed is one digit, 0-9'),
  // Which boxes may share a zongpai: any, only one order's, or only one customer's.
  ZONGPAI_MIXING: variable(
    z.prefault(z.enum(['any', 'order', 'customer']), 'any'),
    'allowed are any, order or customer',
  ),
  // Cognito app client ids are up to 128 word characters; the stack sets its own client's id.
  USER_POOL_CLIENT_ID: variable(
    z.optional(z.string().check(z.regex(/^[\w+]{1,128}$/))),
    'allowed is a Cognito app client id (letters, digits, _ and +)',
  ),
};

type Variables = typeof VARIABLES;
type VariableName = keyof Variables;

const EnvSchema = z.object(
  Object.fromEntries(Object.entries(VARIABLES).map(([name, { schema }]) => [name, schema])) as {
    [K in VariableName]: Variables[K]['schema'];
  },
);

/** The environment as the service reads it: each variable mapped to its field of {@link Config}. */
const ConfigSchema = z.pipe(
  EnvSchema,
  z.transform(
    (e) =>
      ({
        servicePrefix: e.SERVICE_PREFIX,
        erpBoxView: e.ERP_BOX_VIEW,
        boxNoPattern: new RegExp(e.BOX_NO_PATTERN),
        zongpaiNoPattern: new RegExp(e.ZONGPAI_NO_PATTERN),
        locationCodePattern: new RegExp(e.LOCATION_CODE_PATTERN),
        itemCodeMaxLength: e.ITEM_CODE_MAX_LENGTH,
        orderNoMaxLength: e.ORDER_NO_MAX_LENGTH,
        quantityMax: e.QUANTITY_MAX,
        boxItemsMax: e.BOX_ITEMS_MAX,
        locationRecordsMax: e.LOCATION_RECORDS_MAX,
        enforceErpPlan: e.ENFORCE_ERP_PLAN,
        locationsRegisteredOnly: e.LOCATIONS_REGISTERED_ONLY,
        idempotencyTtlHours: e.IDEMPOTENCY_TTL_HOURS,
        locationHistoryMonths: e.LOCATION_HISTORY_MONTHS,
        eventsRetentionDays: e.EVENTS_RETENTION_DAYS,
        sscc: {
          extensionDigit: e.SSCC_EXTENSION_DIGIT,
          ...(e.GS1_COMPANY_PREFIX === undefined ? {} : { companyPrefix: e.GS1_COMPANY_PREFIX }),
        },
        zongpaiMixing: e.ZONGPAI_MIXING,
        events: { busName: e.EVENT_BUS_NAME, endpoint: e.EVENTBRIDGE_ENDPOINT },
        ...(e.USER_POOL_CLIENT_ID === undefined ? {} : { userPoolClientId: e.USER_POOL_CLIENT_ID }),
        database: {
          clusterArn: e.DB_CLUSTER_ARN,
          secretArn: e.DB_SECRET_ARN,
          name: e.DB_NAME,
          endpoint: e.DATA_API_ENDPOINT,
          retryBudgetMs: e.DB_RETRY_BUDGET_MS,
        },
      }) as const,
  ),
);

/**
 * The service configuration, derived from the environment by {@link loadConfig}. `userPoolClientId`
 * is the app client whose ID tokens are accepted (`aud`); unset accepts any client of the pool.
 */
export type Config = z.output<typeof ConfigSchema>;

const reasonOf = (issue: z.core.$ZodIssue): string => {
  switch (issue.code) {
    case 'too_small':
      return 'is too small';
    case 'too_big':
      return 'is too large';
    case 'custom':
      return issue.message;
    case 'invalid_format':
      return 'pattern' in issue && String(issue.pattern) === String(/^\d+$/)
        ? 'is not a whole number'
        : 'is not allowed';
    default:
      return 'is not allowed';
  }
};

/** Thrown at cold start when an environment variable is set to something unusable. */
export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}

/**
 * Parses and validates the environment into the service configuration; throws {@link ConfigError}
 * naming every bad variable with its value, the reason and the allowed values.
 *
 * The same names are used in Lambda (set by the CDK stack) and locally (set by `npm start`).
 * A bad value fails the cold start loudly instead of surfacing later as a confusing 500.
 *
 * @example
 * ```ts
 * const config = loadConfig({ SERVICE_PREFIX: 'cargo', QUANTITY_MAX: '500' });
 * config.quantityMax; // 500
 * ```
 */
export const loadConfig = (env: Record<string, string | undefined>): Config => {
  const present = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = ConfigSchema.safeParse(present);
  if (parsed.success) return parsed.data;
  const problems = new Map<string, string>();
  for (const issue of parsed.error.issues) {
    const name = String(issue.path[0]);
    if (!problems.has(name))
      problems.set(
        name,
        `${name}='${String(present[name])}' ${reasonOf(issue)}: ${VARIABLES[name as VariableName].allowed}`,
      );
  }
  throw new ConfigError(`Invalid configuration: ${[...problems.values()].join('; ')}`);
};
