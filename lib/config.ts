import * as z from 'zod/mini';

/**
 * Service configuration, read from environment variables once at cold start.
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
  z.prefault(z.pipe(z.string().check(z.regex(/^\d+$/)), z.pipe(z.transform(Number), z.int().check(z.minimum(1), z.maximum(max)))), String(fallback));

const flag = (fallback: boolean) =>
  z.prefault(z.pipe(z.string().check(z.regex(/^(true|false)$/)), z.transform((v) => v === 'true')), String(fallback));

const EnvSchema = z.object({
  SERVICE_PREFIX: z.prefault(z.string().check(z.regex(/^[a-z0-9-]{1,32}$/)), 'cargo'),
  ERP_BOX_VIEW: z.prefault(z.string().check(z.regex(sqlIdentifier)), 'erp.v_box_info'),
  BOX_NO_PATTERN: z.prefault(regexSource, '^[A-Z0-9-]{4,32}$'),
  ZONGPAI_NO_PATTERN: z.prefault(regexSource, '^[A-Z0-9-]{4,32}$'),
  LOCATION_CODE_PATTERN: z.prefault(regexSource, '^[A-Z0-9-]{2,32}$'),
  ITEM_CODE_MAX_LENGTH: positiveInt(64, 1000),
  QUANTITY_MAX: positiveInt(99_999, 2_000_000_000),
  BOX_ITEMS_MAX: positiveInt(500, 5000),
  LOCATION_RECORDS_MAX: positiveInt(500, 5000),
  ENFORCE_ERP_PLAN: flag(true),
  IDEMPOTENCY_TTL_HOURS: positiveInt(24, 24 * 30),
  DB_CLUSTER_ARN: z.optional(z.string().check(z.minLength(1))),
  DB_SECRET_ARN: z.optional(z.string().check(z.minLength(1))),
  DB_NAME: z.prefault(z.string().check(z.regex(/^[A-Za-z_][A-Za-z0-9_]{0,62}$/)), 'cargo'),
  DATA_API_ENDPOINT: z.optional(z.string().check(z.regex(/^https?:\/\/\S+$/))),
  DB_RETRY_BUDGET_MS: positiveInt(20_000, 120_000),
  // Cognito app client ids are up to 128 word characters; the stack sets its own client's id.
  USER_POOL_CLIENT_ID: z.optional(z.string().check(z.regex(/^[\w+]{1,128}$/))),
});

const wholeNumbers = (max: number) => `allowed are whole numbers from 1 to ${String(max)}`;
const PATTERN = 'allowed is a JavaScript regular expression';

/** What each variable accepts, for the message that refuses a bad value. */
const ALLOWED: Readonly<Record<keyof z.infer<typeof EnvSchema>, string>> = {
  SERVICE_PREFIX: "allowed are 1-32 of a-z, 0-9 and '-'",
  ERP_BOX_VIEW: 'allowed is a lower-case SQL name, schema.name or name (a-z, 0-9, _)',
  BOX_NO_PATTERN: PATTERN,
  ZONGPAI_NO_PATTERN: PATTERN,
  LOCATION_CODE_PATTERN: PATTERN,
  ITEM_CODE_MAX_LENGTH: wholeNumbers(1000),
  QUANTITY_MAX: wholeNumbers(2_000_000_000),
  BOX_ITEMS_MAX: wholeNumbers(5000),
  LOCATION_RECORDS_MAX: wholeNumbers(5000),
  ENFORCE_ERP_PLAN: 'allowed are true or false',
  IDEMPOTENCY_TTL_HOURS: wholeNumbers(24 * 30),
  DB_CLUSTER_ARN: 'allowed is an ARN',
  DB_SECRET_ARN: 'allowed is an ARN',
  DB_NAME: 'allowed is a database name (letters, digits and _, not starting with a digit)',
  DATA_API_ENDPOINT: 'allowed is an http:// or https:// URL',
  DB_RETRY_BUDGET_MS: wholeNumbers(120_000),
  USER_POOL_CLIENT_ID: 'allowed is a Cognito app client id (letters, digits, _ and +)',
};

const reasonOf = (issue: z.core.$ZodIssue): string => {
  switch (issue.code) {
    case 'too_small':
      return 'is too small';
    case 'too_big':
      return 'is too large';
    case 'custom':
      return issue.message;
    case 'invalid_format':
      return 'pattern' in issue && String(issue.pattern) === String(/^\d+$/) ? 'is not a whole number' : 'is not allowed';
    default:
      return 'is not allowed';
  }
};

export interface Config {
  readonly servicePrefix: string;
  readonly erpBoxView: string;
  readonly boxNoPattern: RegExp;
  readonly zongpaiNoPattern: RegExp;
  readonly locationCodePattern: RegExp;
  readonly itemCodeMaxLength: number;
  readonly quantityMax: number;
  readonly boxItemsMax: number;
  readonly locationRecordsMax: number;
  readonly enforceErpPlan: boolean;
  readonly idempotencyTtlHours: number;
  /** The app client whose ID tokens are accepted (`aud`); unset accepts any client of the pool. */
  readonly userPoolClientId?: string;
  readonly database: {
    readonly clusterArn?: string;
    readonly secretArn?: string;
    readonly name: string;
    readonly endpoint?: string;
    readonly retryBudgetMs: number;
  };
}

/** Thrown at cold start when an environment variable is set to something unusable. */
export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}

/**
 * Parses and validates the environment; throws {@link ConfigError} naming every bad variable
 * with its value, the reason and the allowed values.
 */
export const loadConfig = (env: Record<string, string | undefined>): Config => {
  const present = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = EnvSchema.safeParse(present);
  if (!parsed.success) {
    const problems = new Map<string, string>();
    for (const issue of parsed.error.issues) {
      const name = String(issue.path[0]);
      if (!problems.has(name)) problems.set(name, `${name}='${String(present[name])}' ${reasonOf(issue)}: ${ALLOWED[name as keyof typeof ALLOWED]}`);
    }
    throw new ConfigError(`Invalid configuration: ${[...problems.values()].join('; ')}`);
  }
  const e = parsed.data;
  return {
    servicePrefix: e.SERVICE_PREFIX,
    erpBoxView: e.ERP_BOX_VIEW,
    boxNoPattern: new RegExp(e.BOX_NO_PATTERN),
    zongpaiNoPattern: new RegExp(e.ZONGPAI_NO_PATTERN),
    locationCodePattern: new RegExp(e.LOCATION_CODE_PATTERN),
    itemCodeMaxLength: e.ITEM_CODE_MAX_LENGTH,
    quantityMax: e.QUANTITY_MAX,
    boxItemsMax: e.BOX_ITEMS_MAX,
    locationRecordsMax: e.LOCATION_RECORDS_MAX,
    enforceErpPlan: e.ENFORCE_ERP_PLAN,
    idempotencyTtlHours: e.IDEMPOTENCY_TTL_HOURS,
    ...(e.USER_POOL_CLIENT_ID === undefined ? {} : { userPoolClientId: e.USER_POOL_CLIENT_ID }),
    database: {
      clusterArn: e.DB_CLUSTER_ARN,
      secretArn: e.DB_SECRET_ARN,
      name: e.DB_NAME,
      endpoint: e.DATA_API_ENDPOINT,
      retryBudgetMs: e.DB_RETRY_BUDGET_MS,
    },
  };
};

/** The configuration of this process, read once. */
export const config: Config = loadConfig(process.env);
