// Damage in the write-ahead log at the process level: `src/main.ts` refuses to start, naming the file and
// offset and what to do; `ringql repair` sets the damage aside; the start then brings back what preceded it.

import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { Wal, walFileName } from '../../src/durable/wal.ts';
import { RECORD_BATCH } from '../../src/durable/record-frame.ts';
import { encodeBatch } from '../../src/durable/batch-record.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

function damagedStateDir(): { dir: string; file: string; offset: number } {
  const dir = mkdtempSync(join(tmpdir(), 'ringql-repair-'));
  const wal = Wal.open({ dir: join(dir, 'wal'), fsync: 'always', fsyncMs: 100 }, []);
  const ts = new Date(Date.now() - 60_000).toISOString();
  for (let b = 0; b < 4; b++) {
    const events = Array.from({ length: 5 }, (_, i) => ({ id: `r${b}-${i}`, timestamp: ts, project: 'p', event_message: `batch ${b}` }));
    wal.appendSync(RECORD_BATCH, encodeBatch('edge.logs.prod', events), Date.now() * 1000);
  }
  void wal.close();
  const file = join(dir, 'wal', walFileName(1));
  const buf = readFileSync(file);
  let offset = 0;
  for (let i = 0; i < 2; i++) offset += 12 + buf.readUInt32LE(offset + 4);
  buf[offset + 20] = buf[offset + 20]! ^ 0x5a; // inside the third record's payload
  writeFileSync(file, buf);
  return { dir, file, offset };
}

describe('a damaged write-ahead log', () => {
  it('stops the start naming file and offset; ringql repair sets it aside; the next start keeps the records before it', async () => {
    const { dir, file, offset } = damagedStateDir();
    const env = { ...process.env, RINGQL_STATE_DIR: dir, RINGQL_DEMO: '0', PORT: '0', RINGQL_ACCESS_TOKENS: 'tok' };
    const refused = spawnSync(process.execPath, ['--import', 'tsx', 'src/main.ts'], { cwd: ROOT, env, encoding: 'utf8', timeout: 60_000 });
    expect(refused.status).toBe(1);
    expect(refused.stderr).toContain(file);
    expect(refused.stderr).toContain(`at byte ${offset}`);
    expect(refused.stderr).toMatch(/--discard-corrupt|ringql repair/);

    const repaired = spawnSync(process.execPath, ['src/cli/ringql.js', 'repair', '--state-dir', dir], { cwd: ROOT, env, encoding: 'utf8', timeout: 60_000 });
    expect(repaired.status).toBe(0);
    expect(repaired.stdout).toMatch(/2 batches, 10 events kept/);
    expect(repaired.stdout).toMatch(/set aside: .*\.corrupt-\d+/);

    const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    const base = await new Promise<string>((resolve, reject) => {
      const on = (d: Buffer): void => { out += d.toString(); const m = /listening on (\S+)/.exec(out); if (m) resolve(m[1]!); };
      child.stdout.on('data', on);
      child.stderr.on('data', on);
      child.once('exit', (c) => reject(new Error(`exited ${c}: ${out}`)));
    });
    try {
      expect(out).toMatch(/recovered 10 events \(2 batches/);
      const sql = encodeURIComponent('select count(*) as n from edge_logs');
      const r = await fetch(`${base}/api/endpoints/query/logs.all?project=p&sql=${sql}`, { headers: { Authorization: 'Bearer tok' } });
      expect(await r.json()).toEqual({ result: [{ n: 10 }] });
    } finally {
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
    }
  }, 90_000);
});
