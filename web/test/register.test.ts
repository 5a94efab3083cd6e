// The browser's IndexedDB classes as globals (idb recognises requests and transactions by them).
import 'fake-indexeddb/auto';
import { openDB } from 'idb';
import { describe, expect, it } from 'vitest';
import { CARGO_REMEMBERED, openRegister } from '../src/register.ts';

let n = 0;
const fresh = () => `register-test-${(n += 1)}`;

describe("the device's memory of cargo seen", () => {
  it('knows a box or zongpai number once seen, as the service reads codes, also after a restart', async () => {
    const name = fresh();
    const register = await openRegister(name);
    expect(register.isKnownCargo('BOX-1001')).toBe(false);
    await register.rememberCargo(['BOX-1001', 'PLT-0001', null, undefined, '']);
    expect(register.isKnownCargo(' box-1001\r\n')).toBe(true);
    expect(register.isKnownCargo('PLT-0001')).toBe(true);
    register.close();
    const again = await openRegister(name);
    expect(again.isKnownCargo('BOX-1001')).toBe(true);
    expect(again.isKnownCargo('A-01-01')).toBe(false);
    again.close();
  });

  it("keeps the locations of a device's register from before it remembered cargo (version 1)", async () => {
    const name = fresh();
    const old = await openDB(name, 1, {
      upgrade: (db) => {
        db.createObjectStore('locations', { keyPath: 'location_code' });
        db.createObjectStore('meta');
      },
    });
    await old.put('locations', {
      location_code: 'A-01-01',
      kind: 'SHELF',
      off_shelf: false,
      zone: 'A',
      description: null,
      blocked: false,
      version: 1,
    });
    old.close();
    const register = await openRegister(name);
    expect(register.lookup('A-01-01')?.kind).toBe('SHELF');
    await register.rememberCargo(['BOX-1001']);
    expect(register.isKnownCargo('BOX-1001')).toBe(true);
    register.close();
  });

  it(`forgets the longest unseen past ${CARGO_REMEMBERED} numbers`, async () => {
    const name = fresh();
    const register = await openRegister(name);
    await register.rememberCargo(Array.from({ length: CARGO_REMEMBERED }, (_, i) => `BOX-${i}`));
    // BOX-0 seen again: BOX-1 is now the longest unseen, forgotten for the next one.
    await register.rememberCargo(['BOX-0']);
    await register.rememberCargo(['PLT-NEW']);
    expect(register.isKnownCargo('BOX-0')).toBe(true);
    expect(register.isKnownCargo('BOX-1')).toBe(false);
    expect(register.isKnownCargo('PLT-NEW')).toBe(true);
    register.close();
    const again = await openRegister(name);
    expect(again.isKnownCargo('BOX-1')).toBe(false);
    expect(again.isKnownCargo('BOX-2')).toBe(true);
    again.close();
  });
});
