/**
 * The runtime configuration the deployment writes beside the app (`/config.json`): the stack
 * writes its region, user pool app client and service prefix at deploy time, `npm start` its
 * local stand-in.
 */
export interface RuntimeConfig {
  readonly region: string;
  readonly user_pool_client_id: string;
  /** Where Cognito's sign-in API answers. @default `https://cognito-idp.{region}.amazonaws.com/` */
  readonly cognito_endpoint?: string;
  /** The service's `{service_prefix}` path segment (SERVICE_PREFIX). @default 'cargo' */
  readonly service_prefix?: string;
  /**
   * Whether the service registers zongpais by SSCC (its GS1_COMPANY_PREFIX is set): the Pallet
   * screen then offers a new SSCC zongpai in one tap. @default false
   */
  readonly sscc_enabled?: boolean;
}

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
