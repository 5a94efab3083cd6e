import { describe, expect, it } from 'vitest';
import type { RegisteredLocation } from '../src/api-types.ts';
import { DEFAULT_SCAN_RULES, scanRulesOf } from '../src/config.ts';
import { classifyBoxScan, classifyScan, isLocationCode } from '../src/register.ts';

/** A register that holds no location: every scan is cargo or nothing. */
const empty = { lookup: () => undefined };

describe("the deployment's scan rules (config.json)", () => {
  it("are the service's defaults where config.json says nothing (an older deployment's)", () => {
    expect(scanRulesOf({})).toEqual(DEFAULT_SCAN_RULES);
    expect(scanRulesOf({ box_no_pattern: '(unclosed' }).boxNo).toEqual(DEFAULT_SCAN_RULES.boxNo);
  });

  it("check cargo at the scan with the deployment's box and zongpai patterns, not the defaults", () => {
    const rules = scanRulesOf({
      box_no_pattern: '^BX[0-9]{6}$',
      zongpai_no_pattern: '^P[0-9]{5}$',
      location_code_pattern: '^[A-Z]-[0-9]{2}$',
      enforce_erp_plan: false,
    });
    expect(rules.enforcePlan).toBe(false);
    expect(classifyScan(empty, 'bx123456', rules)).toEqual({ kind: 'cargo', code: 'BX123456' });
    expect(classifyScan(empty, 'P12345', rules)).toEqual({ kind: 'cargo', code: 'P12345' });
    // BOX-1001 is a box number by default, not in this deployment.
    expect(classifyScan(empty, 'BOX-1001', rules)).toEqual({ kind: 'invalid', code: 'BOX-1001' });
    expect(classifyScan(empty, 'BOX-1001')).toEqual({ kind: 'cargo', code: 'BOX-1001' });
    // An SSCC is cargo by its check digit only where a pattern takes 18 digits.
    expect(classifyScan(empty, '(00)106141411234567897').kind).toBe('cargo');
    expect(classifyScan(empty, '(00)106141411234567897', rules).kind).toBe('invalid');
    expect(isLocationCode('a-01', rules)).toBe(true);
    expect(isLocationCode('A-01-01', rules)).toBe(false);
    expect(isLocationCode('A-01-01')).toBe(true);
  });

  it('take only a box number, or a location label of the register, where a box is expected (One scan)', () => {
    const shelf: RegisteredLocation = {
      location_code: 'A-01-01',
      kind: 'SHELF',
      off_shelf: false,
      zone: 'A',
      description: null,
      blocked: false,
      version: 1,
      registered_at: '2026-11-21T08:00:00.000Z',
      changed_at: '2026-11-21T08:00:00.000Z',
    };
    const register = { lookup: (code: string) => (code === 'A-01-01' ? shelf : undefined) };
    expect(classifyBoxScan(register, 'box-1001')).toEqual({ kind: 'cargo', code: 'BOX-1001' });
    expect(classifyBoxScan(register, '(00)106141411234567897')).toEqual({ kind: 'cargo', code: '106141411234567897' });
    expect(classifyBoxScan(register, 'hello world!')).toEqual({ kind: 'invalid', code: 'HELLO WORLD!' });
    expect(classifyBoxScan(register, 'a-01-01')).toEqual({ kind: 'location', location: shelf });
    // A zongpai number is no box number where the patterns differ.
    const rules = scanRulesOf({ box_no_pattern: '^BX[0-9]{6}$', zongpai_no_pattern: '^P[0-9]{5}$' });
    expect(classifyBoxScan(empty, 'P12345', rules).kind).toBe('invalid');
    expect(classifyScan(empty, 'P12345', rules).kind).toBe('cargo');
  });
});
