// src/main.ts as a process over one state directory (issue 13 items 4 and 14b): an endpoint reading
// a field only events carried does not stop the next start, and crash leftovers are reported on stderr.

import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const stateDir = mkdtempSync(join(tmpdir(), 'ringql-main-restart-'));
afterAll(() => rmSync(stateDir, { recursive: true, force: true }));
const TOKEN = 'restart-token';
const auth = { Authorization: `Bearer ${TOKEN}`, 'Content-Type': 'application/json' };

interface Main { child: ChildProcess; base: string; err: () => string; exit: Promise<number | null> }

async function startMain(): Promise<Main> {
  const env: Record<string, string | undefined> = {
    ...process.env, HOST: '127.0.0.1', PORT: '0', RINGQL_DEMO: '0', RINGQL_STATE_DIR: stateDir, RINGQL_ACCESS_TOKENS: TOKEN,
  };
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
  const exit = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
  const until = Date.now() + 20_000;
  while (!/listening on (\S+)/.test(out)) {
    if (child.exitCode !== null) throw new Error(`main exited with ${child.exitCode} before listening: ${err}`);
    if (Date.now() > until) throw new Error(`main did not listen in time: ${err}`);
    await new Promise((r) => setTimeout(r, 20));
  }
  return { child, base: /listening on (\S+)/.exec(out)![1]!, err: () => err, exit };
}

async function stopMain(m: Main): Promise<void> {
  m.child.kill('SIGTERM');
  expect(await m.exit).toBe(0);
}

describe('main over a state directory', () => {
  it('starts again after an endpoint on an event-only field was stored, answering unknown_name until events carry it', async () => {
    const first = await startMain();
    try {
      expect((await fetch(`${first.base}/api/logs?source_name=edge.logs.prod`, { method: 'POST', headers: auth, body: JSON.stringify({ project: 'p', zone: 'eu' }) })).status).toBe(200);
      const created = await fetch(`${first.base}/api/endpoints`, { method: 'POST', headers: auth, body: JSON.stringify({ name: 'zones', query: 'select zone from `edge.logs.prod`', cache_duration_seconds: 0 }) });
      expect(created.status).toBe(201);
      await stopMain(first);
    } finally {
      first.child.kill('SIGKILL');
    }
    const dir = join(stateDir, 'endpoints');
    writeFileSync(join(dir, `${readdirSync(dir)[0]!}.999.tmp`), '{"cut short');
    // The events that carried the field (in the log and the shutdown checkpoint) are gone by the next
    // start (as after retention evicted them):
    // without them the field is unknown, which is the case under test.
    rmSync(join(stateDir, 'wal'), { recursive: true, force: true });
    rmSync(join(stateDir, 'checkpoint'), { recursive: true, force: true });

    const second = await startMain();
    try {
      const r = await fetch(`${second.base}/api/endpoints/query/zones`, { headers: auth });
      expect(r.status).toBe(400);
      expect(((await r.json()) as { error: { code: string } }).error.code).toBe('unknown_name');
      expect((await fetch(`${second.base}/api/logs?source_name=edge.logs.prod`, { method: 'POST', headers: auth, body: JSON.stringify({ project: 'p', zone: 'us' }) })).status).toBe(200);
      const ok = await fetch(`${second.base}/api/endpoints/query/zones`, { headers: auth });
      expect(await ok.json()).toEqual({ result: [{ zone: 'us' }] });
      expect(second.err()).toMatch(/removed 1 leftover temporary endpoint file/);
      expect(second.err()).toMatch(/stored endpoint zones .* does not bind yet/);
      expect(readdirSync(dir).filter((f) => f.endsWith('.tmp'))).toEqual([]);
      await stopMain(second);
    } finally {
      second.child.kill('SIGKILL');
    }
  }, 60_000);
});
