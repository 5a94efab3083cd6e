import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../lib/config.ts';

describe('configuration', () => {
  it('uses the SPEC defaults when nothing is set', () => {
    const config = loadConfig({});
    expect(config).toEqual(expect.objectContaining({
      servicePrefix: 'cargo', erpBoxView: 'erp.v_box_info', quantityMax: 99_999, boxItemsMax: 500, locationRecordsMax: 500, enforceErpPlan: true, idempotencyTtlHours: 24,
    }));
    expect(config.boxNoPattern.source).toBe('^[A-Z0-9-]{4,32}$');
    expect(config.locationCodePattern.source).toBe('^[A-Z0-9-]{2,32}$');
  });

  it('reads every bound and pattern from the environment', () => {
    const config = loadConfig({ QUANTITY_MAX: '500', BOX_NO_PATTERN: '^[A-Z]{2}\\d{8}$', ENFORCE_ERP_PLAN: 'false', SERVICE_PREFIX: 'wms' });
    expect({ q: config.quantityMax, p: config.boxNoPattern.test('AB12345678'), e: config.enforceErpPlan, s: config.servicePrefix }).toEqual({ q: 500, p: true, e: false, s: 'wms' });
  });

  it.each([
    ['ERP_BOX_VIEW', 'erp.v_box_info; DROP TABLE x'],
    ['ERP_BOX_VIEW', 'Erp."view"'],
    ['QUANTITY_MAX', 'lots'],
    ['QUANTITY_MAX', '0'],
    ['BOX_NO_PATTERN', '(['],
    ['ENFORCE_ERP_PLAN', 'yes'],
    ['SERVICE_PREFIX', 'Cargo/Prefix'],
    ['DATA_API_ENDPOINT', 'not a url'],
  ])('refuses %s=%s, naming the variable', (name, value) => {
    expect(() => loadConfig({ [name]: value })).toThrow(ConfigError);
    expect(() => loadConfig({ [name]: value })).toThrow(name);
  });
});
