/**
 * The runtime configuration the deployment writes beside the app (`/config.json`): the stack
 * writes its region, user pool app client and the service's settings the app needs at deploy
 * time, `npm start` its local stand-in with the same settings.
 */
export interface RuntimeConfig extends Partial<DeploymentSettings> {
  readonly region: string;
  readonly user_pool_client_id: string;
  /** Where Cognito's sign-in API answers. @default `https://cognito-idp.{region}.amazonaws.com/` */
  readonly cognito_endpoint?: string;
}

/**
 * What the app is told of the service's own settings, the same on AWS and locally (both write
 * it from the functions' configuration: infra/app-settings.ts). Each is optional for the app,
 * which falls back to the service's default where a deployment wrote an older configuration.
 */
export interface DeploymentSettings {
  /** The service's `{service_prefix}` path segment (SERVICE_PREFIX). @default 'cargo' */
  readonly service_prefix: string;
  /**
   * Whether the service registers zongpais by SSCC (its GS1_COMPANY_PREFIX is set): the Pallet
   * screen then offers a new SSCC zongpai in one tap. @default false
   */
  readonly sscc_enabled: boolean;
  /** BOX_NO_PATTERN's source: a box number is checked with it at the scan. @default '^[A-Z0-9-]{4,32}$' */
  readonly box_no_pattern: string;
  /** ZONGPAI_NO_PATTERN's source. @default '^[A-Z0-9-]{4,32}$' */
  readonly zongpai_no_pattern: string;
  /** LOCATION_CODE_PATTERN's source. @default '^[A-Z0-9-]{2,32}$' */
  readonly location_code_pattern: string;
  /**
   * ENFORCE_ERP_PLAN: whether the service refuses an item not in a box's plan or beyond it. The
   * app refuses such a piece at the scan only then; otherwise it counts it and warns. @default true
   */
  readonly enforce_erp_plan: boolean;
}

/** The rules a scan is checked with on the device, from the deployment's settings. */
export interface ScanRules {
  readonly boxNo: RegExp;
  readonly zongpaiNo: RegExp;
  readonly locationCode: RegExp;
  readonly enforcePlan: boolean;
}

/** The service's defaults: where config.json does not say, the app checks as a default service does. */
export const DEFAULT_SCAN_RULES: ScanRules = {
  boxNo: /^[A-Z0-9-]{4,32}$/,
  zongpaiNo: /^[A-Z0-9-]{4,32}$/,
  locationCode: /^[A-Z0-9-]{2,32}$/,
  enforcePlan: true,
};

/** A pattern of config.json, or the default where it has none or one this browser cannot read. */
const patternOr = (source: string | undefined, fallback: RegExp): RegExp => {
  if (source === undefined) return fallback;
  try {
    return new RegExp(source);
  } catch {
    return fallback;
  }
};

/** The scan rules of this deployment (config.json), each the service's default where it says nothing. */
export const scanRulesOf = (config: Partial<DeploymentSettings>): ScanRules => ({
  boxNo: patternOr(config.box_no_pattern, DEFAULT_SCAN_RULES.boxNo),
  zongpaiNo: patternOr(config.zongpai_no_pattern, DEFAULT_SCAN_RULES.zongpaiNo),
  locationCode: patternOr(config.location_code_pattern, DEFAULT_SCAN_RULES.locationCode),
  enforcePlan: config.enforce_erp_plan !== false,
});

export const cognitoEndpoint = (config: RuntimeConfig): string =>
  config.cognito_endpoint ?? `https://cognito-idp.${config.region}.amazonaws.com/`;

/**
 * Reads `/config.json`, which the page preloads while the script downloads (index.html's
 * `<link rel="preload">`: this request takes its response, so the sign-in form does not wait
 * for a second round trip after the script). Both places that serve it send it `no-cache`, so
 * a deployment's new configuration is read on the next load.
 */
export const loadConfig = async (fetchImpl: typeof fetch = fetch): Promise<RuntimeConfig> => {
  const res = await fetchImpl('/config.json');
  if (!res.ok) throw new Error(`config.json: HTTP ${res.status}`);
  return (await res.json()) as RuntimeConfig;
};
