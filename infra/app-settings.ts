import type { Config } from '../lib/config.ts';
import type { DeploymentSettings } from '../web/src/config.ts';

/**
 * What the handheld app's `config.json` says of the service, read from the functions' own
 * configuration: the stack (infra/constructs/web-app.ts) and `npm start` (local/web.ts)
 * both write it from here, so the two carry the same settings in the same shape.
 *
 * @example
 * ```ts
 * appSettings(loadConfig({ ENFORCE_ERP_PLAN: 'false' })).enforce_erp_plan; // false
 * ```
 */
export const appSettings = (config: Config): DeploymentSettings => ({
  service_prefix: config.servicePrefix,
  sscc_enabled: config.sscc.companyPrefix !== undefined,
  box_no_pattern: config.boxNoPattern.source,
  zongpai_no_pattern: config.zongpaiNoPattern.source,
  location_code_pattern: config.locationCodePattern.source,
  enforce_erp_plan: config.enforceErpPlan,
});
