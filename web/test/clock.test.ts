import { describe, expect, it } from 'vitest';
import { createServiceClock } from '../src/clock.ts';

const memory = () => {
  const store = new Map<string, string>();
  return { getItem: (k: string) => store.get(k) ?? null, setItem: (k: string, v: string) => void store.set(k, v) };
};
const minute = 60_000;

describe("the service's clock as the device knows it", () => {
  it("stamps with the device's time corrected by the offset the service's Date header shows", () => {
    let device = Date.parse('2026-05-01T08:10:00.000Z');
    const clock = createServiceClock({ storage: memory(), now: () => device });
    expect(clock.now()).toBe(device);
    // The device runs 10 minutes fast: the service answered at 08:00:00 (whole seconds).
    clock.observe('Fri, 01 May 2026 08:00:00 GMT', device - 100, device + 100);
    device += minute;
    expect(Math.abs(clock.now() - Date.parse('2026-05-01T08:01:00.000Z'))).toBeLessThanOrEqual(1000);
  });

  it('keeps the last offset for a start without network', () => {
    const storage = memory();
    const device = Date.parse('2026-05-01T08:10:00.000Z');
    createServiceClock({ storage, now: () => device }).observe('Fri, 01 May 2026 08:00:00 GMT', device, device);
    const restarted = createServiceClock({ storage, now: () => device });
    expect(Math.abs(restarted.now() - Date.parse('2026-05-01T08:00:00.000Z'))).toBeLessThanOrEqual(1000);
  });

  it('ignores an answer without a readable Date header', () => {
    const device = Date.parse('2026-05-01T08:10:00.000Z');
    const clock = createServiceClock({ storage: memory(), now: () => device });
    clock.observe(null, device, device);
    clock.observe('not a date', device, device);
    expect(clock.now()).toBe(device);
  });
});
