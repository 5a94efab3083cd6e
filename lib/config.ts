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
});

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

/** Parses and validates the environment; throws {@link ConfigError} naming every bad variable. */
export const loadConfig = (env: Record<string, string | undefined>): Config => {
  const present = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = EnvSchema.safeParse(present);
  if (!parsed.success) {
    const names = [...new Set(parsed.error.issues.map((i) => String(i.path[0])))];
    throw new ConfigError(`Invalid configuration: ${names.join(', ')}`);
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
