import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { localSigningKey } from '../../local/auth.ts';
import { runNpm, type Finished } from '../local/process.ts';
import { startFakeRegister, type FakeRegister } from './locations-fake.ts';

/**
 * `npm run locations` as ops run it, against a stand-in of the register's two routes that
 * answers as the SPEC says (test/ops/locations-fake.ts); the token is the command's own
 * default, a local supervisor token signed with the data folder's key.
 */
const HEADER = 'location_code,kind,zone,description,blocked';
const KINDS = ['SHELF', 'STAGING', 'DOCK', 'FLOOR', 'QUARANTINE'];

let dir: string;
let key: Uint8Array;
let fake: FakeRegister;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'locations-'));
  key = localSigningKey(join(dir, 'data'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));
beforeEach(async () => {
  await fake?.close();
  fake = await startFakeRegister({ signingKey: key });
});
afterAll(async () => fake?.close());

/** A file of `count` locations: every kind, zones, blocked ones, descriptions that need quoting. */
const locationsFile = (name: string, count: number, edit: (line: number, text: string) => string = (_, t) => t) => {
  const lines = [HEADER];
  for (let i = 1; i <= count; i += 1) {
    const description = i % 7 === 0 ? `"Rack ${i}, ""left"""` : i % 11 === 0 ? `货架 ${i}` : '';
    const text = `L-${String(i).padStart(6, '0')},${KINDS[i % 5]},${i % 3 === 0 ? '' : `Z${i % 40}`},${description},${i % 13 === 0 ? 'true' : i % 2 === 0 ? 'false' : ''}`;
    lines.push(edit(lines.length + 1, text));
  }
  const path = join(dir, name);
  writeFileSync(path, `${lines.join('\r\n')}\r\n`);
  return path;
};

const locations = (...args: string[]): Promise<Finished> =>
  runNpm(['run', '-s', 'locations', '--', '--base-url', fake.url, ...args], { DATA_DIR: join(dir, 'data') }, 120_000);

const keysOf = (f: FakeRegister) => f.posts.map((p) => p.key);

describe('npm run locations -- import', () => {
  let big: string;
  beforeAll(() => {
    big = locationsFile('big.csv', 50_000);
  });

  it('imports a 50 000-line file in 100 batches of 500, each under a key of its own', async () => {
    const result = await locations('import', big);
    expect(result.stderr).toContain('batch 1/100 (lines 2-501): 500 created, 0 changed, 0 unchanged');
    expect(result.stdout).toContain('imported 50000 locations from');
    expect(result.stdout).toContain('50000 created, 0 changed, 0 unchanged');
    expect(result.code).toBe(0);
    expect(fake.posts.map((p) => p.count)).toEqual(Array<number>(100).fill(500));
    expect(new Set(keysOf(fake)).size).toBe(100);
    expect(fake.locations.size).toBe(50_000);
    expect(fake.locations.get('L-000007')).toMatchObject({ description: 'Rack 7, "left"', zone: 'Z7', blocked: false });
    expect(fake.locations.get('L-000013')).toMatchObject({ kind: 'FLOOR', blocked: true, zone: 'Z13' });
    expect(fake.locations.get('L-000033')).toMatchObject({ description: '货架 33', zone: null });
  }, 120_000);

  it('reports every location unchanged on a rerun and sends no batch again', async () => {
    const first = await locations('import', big);
    expect(first.code).toBe(0);
    const posts = fake.posts.length;
    const rerun = await locations('import', big);
    expect(rerun.stdout).toContain('0 created, 0 changed, 50000 unchanged');
    expect(rerun.code).toBe(0);
    expect(fake.posts.length).toBe(posts);
  }, 120_000);

  it('sends the same file under the same keys on every run', async () => {
    expect((await locations('import', big)).code).toBe(0);
    const first = keysOf(fake);
    await fake.close();
    fake = await startFakeRegister({ signingKey: key });
    expect((await locations('import', big)).code).toBe(0);
    expect(keysOf(fake)).toEqual(first);
    expect(first).toHaveLength(100);
  }, 120_000);

  it('refuses a file with bad lines before sending anything, naming each line and why', async () => {
    const path = locationsFile('bad.csv', 30, (line, text) =>
      line === 17
        ? text.replace(/^L-0*16,\w+/, 'L-000016,SHELVES')
        : line === 25
          ? text.replace(/^L-0*24/, ' l-000003 ')
          : text,
    );
    const result = await locations('import', path);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('line 17: kind "SHELVES" must be one of SHELF, STAGING, DOCK, FLOOR, QUARANTINE');
    expect(result.stderr).toContain('line 25: location_code "L-000003" is on line 4 too');
    expect(result.stderr).toContain('has 2 bad lines; nothing was sent');
    expect(fake.posts).toEqual([]);
    expect(fake.gets).toEqual([]);
  });

  it('names the line of a bad code, zone, description or blocked, and of a line with a field too many', async () => {
    const path = join(dir, 'fields.csv');
    writeFileSync(
      path,
      `\uFEFF${HEADER}\nA-1,SHELF,,,\nB_2,SHELF,,,\nC-3,DOCK,zone 1,,\n"D-4",FLOOR,,"${'x'.repeat(201)}",\nE-5,DOCK,,,yes\nF-6,DOCK,,,,\n`,
    );
    const result = await locations('import', path);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`line 3: location_code "B_2" must be 2-32 characters of A-Z, 0-9 and '-'`);
    expect(result.stderr).toContain(`line 4: zone "ZONE 1" must be 1-32 characters of A-Z, 0-9 and '-'`);
    expect(result.stderr).toContain('line 5: description is 201 characters long, at most 200 are allowed');
    expect(result.stderr).toContain('line 6: blocked "yes" must be true, false or empty');
    expect(result.stderr).toContain('line 7: has 6 fields, the header 5');
    expect(fake.posts).toEqual([]);
  });

  it('names the line of a quoted field left open, and of bytes that are not UTF-8', async () => {
    const open = join(dir, 'open.csv');
    writeFileSync(open, `${HEADER}\r\nA-1,SHELF,,,\r\n\r\nB-2,SHELF,,"Rack 2,\r\nC-3,SHELF,,,\r\n`);
    const opened = await locations('import', open);
    expect(opened.stderr).toContain('line 4: a quoted field is not closed');
    expect(opened.code).toBe(1);
    const latin1 = join(dir, 'latin1.csv');
    writeFileSync(
      latin1,
      Buffer.concat([Buffer.from(`${HEADER}\nA-1,SHELF,,,\nB-2,SHELF,,Caf`), Buffer.from([0xe9]), Buffer.from(',\n')]),
    );
    const notUtf8 = await locations('import', latin1);
    expect(notUtf8.stderr).toContain('line 3: is not UTF-8 text');
    expect(notUtf8.code).toBe(1);
    expect(fake.posts).toEqual([]);
  });

  it('names the refused batch by its first and last line with the error code and message, and a rerun of the corrected file sends only that batch', async () => {
    fake.cargo.add('L-001200');
    fake.cargo.add('L-001300');
    const path = locationsFile('cargo.csv', 1500);
    const refused = await locations('import', path);
    expect(refused.code).toBe(1);
    // Each refused location by its line and column, not by its place in the batch, and once.
    expect(refused.stderr).toContain(
      [
        'batch 3 of 3 (lines 1002-1501) was refused: LOCATION_IS_CARGO',
        "  line 1201: location_code 'L-001200' is the number of a box or zongpai, not a location: scan the location label",
        "  line 1301: location_code 'L-001300' is the number of a box or zongpai, not a location: scan the location label",
      ].join('\n'),
    );
    expect(refused.stderr).not.toContain('locations[');
    expect(refused.stderr).toContain('the batches before it were imported (1000 created, 0 changed, 0 unchanged)');
    expect(fake.locations.size).toBe(1000);
    const corrected = locationsFile('cargo.csv', 1500, (line, text) =>
      line === 1201 || line === 1301 ? text.replace('L-00', 'L-X0') : text,
    );
    const posts = fake.posts.length;
    const rerun = await locations('import', corrected);
    expect(rerun.stdout).toContain('500 created, 0 changed, 1000 unchanged');
    expect(rerun.code).toBe(0);
    expect(fake.posts.slice(posts).map((p) => p.count)).toEqual([500]);
  });

  it('tries a busy answer again after its Retry-After under the same key', async () => {
    fake.busy = 2;
    // The stack's ApiUrl output ends in /v1/: the command takes it as it is.
    const result = await locations('import', locationsFile('busy.csv', 600), '--base-url', `${fake.url}/v1/`);
    expect(result.stderr).toContain('batch 1 (lines 2-501): 503, trying again in 0 s');
    expect(result.code).toBe(0);
    const [a, b, c, d] = fake.posts;
    expect([a?.status, b?.status, c?.status, d?.status]).toEqual([503, 503, 200, 200]);
    expect(new Set([a?.key, b?.key, c?.key]).size).toBe(1);
    expect(fake.locations.size).toBe(600);
  });

  it('stops with the error code when the API refuses the token', async () => {
    const result = await locations('import', locationsFile('token.csv', 3), '--token', 'not-a-token');
    expect(result.stderr).toContain('the API answered 401 UNAUTHORIZED: Unauthorized');
    expect(result.code).toBe(1);
    expect(fake.posts).toEqual([]);
  });

  it('asks for a token for an API that is not local', async () => {
    const result = await runNpm([
      'run',
      '-s',
      'locations',
      '--',
      'import',
      'x.csv',
      '--base-url',
      'https://abc.execute-api.eu-central-1.amazonaws.com/live/v1/',
    ]);
    expect(result.stderr).toContain('--token is required for https://abc.execute-api');
    expect(result.code).toBe(2);
  });
});

describe('npm run locations -- export', () => {
  it('writes the register as the same CSV, so that importing it again changes nothing', async () => {
    const source = locationsFile('source.csv', 250);
    expect((await locations('import', source)).code).toBe(0);
    const out = join(dir, 'export.csv');
    const exported = await locations('export', out);
    expect(exported.stdout).toContain(`exported 250 locations to ${out}`);
    expect(exported.code).toBe(0);
    expect(fake.gets.filter((q) => q.includes('limit=100')).length).toBeGreaterThanOrEqual(3);
    const text = readFileSync(out, 'utf8');
    const lines = text.split('\r\n');
    expect(lines[0]).toBe(HEADER);
    expect(lines).toContain('L-000007,DOCK,Z7,"Rack 7, ""left""",false');
    expect(lines).toContain('L-000033,FLOOR,,货架 33,false');
    expect(lines.length).toBe(252); // the header, 250 locations, and the empty string after the last CRLF
    const posts = fake.posts.length;
    const again = await locations('import', out);
    expect(again.stdout).toContain('0 created, 0 changed, 250 unchanged');
    expect(again.code).toBe(0);
    expect(fake.posts.length).toBe(posts);
  });
});
