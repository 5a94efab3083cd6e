import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../support/service.ts';

/**
 * The change feed never skips an event: a statement that took its sequence number early but
 * commits late is still delivered to a reader that already read past the events before it.
 */
let service: TestService;
let erp: string;
beforeAll(async () => {
  service = await startTestService();
  erp = await service.token('erp-system', ['integration']);
});
afterAll(async () => service?.close());

interface Page {
  events: { id: string; sequence: number; type: string; data: { cargo_no?: string; zongpai_no?: string } }[];
  next_after: number;
}
const page = async (after: number): Promise<Page> => {
  const res = await service.call<Page>('GET', `/v1/events?after=${after}&limit=37`, { token: erp });
  expect(res.status).toBe(200);
  return res.body;
};

describe('the change feed under racing writers', () => {
  it('a polling reader sees every event of many racing writers exactly once, in sequence order', async () => {
    const start =
      (await page(0)).events.length === 0
        ? 0
        : await (async () => {
            let after = 0;
            for (let p = await page(after); p.events.length > 0; p = await page(after)) after = p.next_after;
            return after;
          })();
    const seen: Page['events'] = [];
    let after = start;
    let writing = true;
    const poll = async () => {
      while (writing) {
        const p = await page(after);
        seen.push(...p.events);
        after = p.next_after;
      }
      for (let p = await page(after); p.events.length > 0; p = await page(after)) {
        seen.push(...p.events);
        after = p.next_after;
      }
    };
    const writers = Array.from({ length: 48 }, (_, w) => async () => {
      if (w % 4 === 3)
        return service.call('POST', '/v1/zongpai', { body: { zongpai_no: `PLT-ER${String(w).padStart(2, '0')}` } });
      const records = Array.from({ length: 1 + (w % 7) * 3 }, (_, r) => ({
        cargo_no: `BOX-ER${String(w).padStart(2, '0')}-${r}`,
        location_code: 'A-01',
      }));
      return service.call('POST', '/v1/cargo/location', { body: { records } });
    });
    const reader = poll();
    const results = await Promise.all(writers.map((write) => write()));
    writing = false;
    await reader;

    expect(new Set(results.map((r) => r.status))).toEqual(new Set([201]));
    const expected = results.reduce((n, r) => n + (r.body.records?.length ?? 1), 0);
    const sequences = seen.map((e) => e.sequence);
    expect(new Set(seen.map((e) => e.id)).size).toBe(seen.length);
    expect(sequences).toEqual(Array.from({ length: expected }, (_, i) => start + 1 + i));
    const written = new Set(
      results.flatMap((r) =>
        (r.body.records ?? [r.body]).map((x: { cargo_no?: string; zongpai_no?: string }) => x.cargo_no ?? x.zongpai_no),
      ),
    );
    expect(new Set(seen.map((e) => e.data.cargo_no ?? e.data.zongpai_no))).toEqual(written);
  });
});
