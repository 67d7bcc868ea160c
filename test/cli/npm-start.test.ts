// `npm start` runs the compiled JavaScript (dist/, built first when stale) directly: no tsx process in
// the tree, the address and a token printed as before, the server answering.

import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const stateDir = mkdtempSync(join(tmpdir(), 'ringql-npm-start-'));
afterAll(() => rmSync(stateDir, { recursive: true, force: true }));

function processesUnder(pid: number): { pid: number; cmd: string }[] {
  const kids = new Map<number, number[]>();
  for (const d of readdirSync('/proc').filter((x) => /^\d+$/.test(x))) {
    try {
      const stat = readFileSync(`/proc/${d}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      kids.set(ppid, [...(kids.get(ppid) ?? []), Number(d)]);
    } catch { /* ended meanwhile */ }
  }
  const pids = [pid];
  for (let i = 0; i < pids.length; i++) pids.push(...(kids.get(pids[i]!) ?? []));
  return pids.map((p) => { try { return { pid: p, cmd: readFileSync(`/proc/${p}/cmdline`, 'utf8').split('\0').join(' ') }; } catch { return { pid: p, cmd: '' }; } });
}

describe('npm start', () => {
  it('serves from dist/ with node alone and prints the address and token', async () => {
    const env: Record<string, string | undefined> = { ...process.env, RINGQL_DEMO: '0', PORT: '0', HOST: '127.0.0.1', RINGQL_STATE_DIR: stateDir };
    delete env.RINGQL_ACCESS_TOKENS;
    const child = spawn('npm', ['start', '--silent'], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
    try {
      await new Promise<void>((resolve, reject) => {
        child.stdout!.on('data', (d: Buffer) => { out += d.toString(); if (/token: \S+\n/.test(out)) resolve(); });
        child.once('exit', (c) => reject(new Error(`npm start exited (${c}): ${err.slice(-2000)}`)));
      });
      const base = /ringql listening on (http:\/\/\S+)/.exec(out)![1]!;
      const cmds = processesUnder(child.pid!).map((p) => p.cmd);
      expect(cmds.some((c) => c.includes('dist/src/main.js'))).toBe(true);
      expect(cmds.filter((c) => /tsx|esbuild/.test(c))).toEqual([]);
      const health = await fetch(`${base}/health`);
      expect(health.status).toBe(200);
    } finally {
      // The server itself, so none outlives the test whatever npm does with signals.
      for (const p of processesUnder(child.pid!)) if (p.cmd.includes('dist/src/main.js')) process.kill(p.pid, 'SIGTERM');
      child.kill('SIGTERM');
      await new Promise((r) => (child.exitCode !== null ? r(null) : child.once('exit', r)));
    }
  }, 120_000);
});
