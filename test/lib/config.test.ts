import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../lib/config.ts';

describe('configuration', () => {
  it('uses the SPEC defaults when nothing is set', () => {
    const config = loadConfig({});
    expect(config).toEqual(
      expect.objectContaining({
        servicePrefix: 'cargo',
        erpBoxView: 'erp.v_box_info',
        quantityMax: 99_999,
        boxItemsMax: 500,
        locationRecordsMax: 500,
        enforceErpPlan: true,
        idempotencyTtlHours: 24,
      }),
    );
    expect(config.boxNoPattern.source).toBe('^[A-Z0-9-]{4,32}$');
    expect(config.locationCodePattern.source).toBe('^[A-Z0-9-]{2,32}$');
  });

  it('reads every bound and pattern from the environment', () => {
    const config = loadConfig({
      QUANTITY_MAX: '500',
      BOX_NO_PATTERN: '^[A-Z]{2}\\d{8}$',
      ENFORCE_ERP_PLAN: 'false',
      SERVICE_PREFIX: 'wms',
    });
    expect({
      q: config.quantityMax,
      p: config.boxNoPattern.test('AB12345678'),
      e: config.enforceErpPlan,
      s: config.servicePrefix,
    }).toEqual({ q: 500, p: true, e: false, s: 'wms' });
  });

  it('keeps 25 months of location history unless LOCATION_HISTORY_MONTHS says otherwise', () => {
    expect([
      loadConfig({}).locationHistoryMonths,
      loadConfig({ LOCATION_HISTORY_MONTHS: '13' }).locationHistoryMonths,
    ]).toEqual([25, 13]);
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

describe('a configuration error says what is wrong and what is allowed', () => {
  it.each([
    ['QUANTITY_MAX', 'abc', "QUANTITY_MAX='abc' is not a whole number: allowed are whole numbers from 1 to 2000000000"],
    ['QUANTITY_MAX', '0', "QUANTITY_MAX='0' is too small: allowed are whole numbers from 1 to 2000000000"],
    ['BOX_ITEMS_MAX', '9999', "BOX_ITEMS_MAX='9999' is too large: allowed are whole numbers from 1 to 5000"],
    ['ENFORCE_ERP_PLAN', 'yes', "ENFORCE_ERP_PLAN='yes' is not allowed: allowed are true or false"],
    [
      'ZONGPAI_NO_PATTERN',
      '(',
      "ZONGPAI_NO_PATTERN='(' must be a valid regular expression: allowed is a JavaScript regular expression",
    ],
    ['SERVICE_PREFIX', 'Cargo', "SERVICE_PREFIX='Cargo' is not allowed: allowed are 1-32 of a-z, 0-9 and '-'"],
    [
      'LOCATION_HISTORY_MONTHS',
      '0',
      "LOCATION_HISTORY_MONTHS='0' is too small: allowed are whole numbers from 1 to 1200",
    ],
    [
      'LOCATION_HISTORY_MONTHS',
      '2y',
      "LOCATION_HISTORY_MONTHS='2y' is not a whole number: allowed are whole numbers from 1 to 1200",
    ],
  ])('names %s=%s with the reason and the allowed values', (name, value, message) => {
    expect(() => loadConfig({ [name]: value })).toThrow(message);
  });

  it('allocates no SSCC and mixes any boxes on a zongpai unless configured', () => {
    const config = loadConfig({});
    expect({ sscc: config.sscc, mixing: config.zongpaiMixing }).toEqual({
      sscc: { extensionDigit: '0' },
      mixing: 'any',
    });
    const set = loadConfig({ GS1_COMPANY_PREFIX: '4012345678', SSCC_EXTENSION_DIGIT: '7', ZONGPAI_MIXING: 'customer' });
    expect({ sscc: set.sscc, mixing: set.zongpaiMixing }).toEqual({
      sscc: { extensionDigit: '7', companyPrefix: '4012345678' },
      mixing: 'customer',
    });
  });

  it.each([
    [
      'GS1_COMPANY_PREFIX',
      '123456',
      "GS1_COMPANY_PREFIX='123456' is not allowed: allowed is a GS1 company prefix of 7-10 digits",
    ],
    ['GS1_COMPANY_PREFIX', '12345678901', 'allowed is a GS1 company prefix of 7-10 digits'],
    ['GS1_COMPANY_PREFIX', '401234A', 'allowed is a GS1 company prefix of 7-10 digits'],
    ['SSCC_EXTENSION_DIGIT', '10', "SSCC_EXTENSION_DIGIT='10' is not allowed: allowed is one digit, 0-9"],
    ['ZONGPAI_MIXING', 'pallet', "ZONGPAI_MIXING='pallet' is not allowed: allowed are any, order or customer"],
    ['ZONGPAI_MIXING', 'ORDER', 'allowed are any, order or customer'],
  ])('refuses %s=%s naming the variable, the reason and the allowed values', (name, value, message) => {
    expect(() => loadConfig({ [name]: value })).toThrow(message);
  });

  it('names every bad variable in one message', () => {
    expect(() => loadConfig({ QUANTITY_MAX: '0', ENFORCE_ERP_PLAN: 'yes' })).toThrow(
      /QUANTITY_MAX='0' .*; ENFORCE_ERP_PLAN='yes' /,
    );
  });
});
