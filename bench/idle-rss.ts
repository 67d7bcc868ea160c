// `npx tsx bench/idle-rss.ts [--tsx]`: resident memory of an empty server (RINGQL_DEMO=0) a few seconds
// after it listens, summed over its whole process tree, started as `npm start` starts it (compiled
// dist/ JS, built first when stale); `--tsx` also measures the old `tsx src/main.ts` start to compare.

import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const ROOT = new URL('..', import.meta.url).pathname;
const SETTLE_MS = 3000;

/** Pids of `pid` and all its descendants, from /proc. */
function tree(pid: number): number[] {
  const parent = new Map<number, number>();
  for (const d of readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const stat = readFileSync(`/proc/${d}/stat`, 'utf8');
      parent.set(Number(d), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
    } catch { /* the process ended meanwhile */ }
  }
  const out = [pid];
  for (let i = 0; i < out.length; i++) for (const [p, pp] of parent) if (pp === out[i]) out.push(p);
  return out;
}

function rssKiB(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) : 0;
}

async function measure(label: string, cmd: string, args: string[]): Promise<void> {
  const stateDir = mkdtempSync(join(tmpdir(), 'ringql-idle-'));
  const child: ChildProcess = spawn(cmd, args, {
    cwd: ROOT,
    env: { ...process.env, RINGQL_DEMO: '0', PORT: '0', HOST: '127.0.0.1', RINGQL_STATE_DIR: stateDir },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  try {
    await new Promise<void>((resolve, reject) => {
      let out = '';
      child.stdout!.on('data', (d: Buffer) => { out += d.toString(); if (out.includes('ringql listening on')) resolve(); });
      child.stderr!.resume();
      child.once('exit', (c) => reject(new Error(`${label}: exited (${c}) before listening`)));
    });
    await new Promise((r) => setTimeout(r, SETTLE_MS));
    const pids = tree(child.pid!);
    const parts = pids.map((p) => ({ p, kib: rssKiB(p), cmd: readFileSync(`/proc/${p}/cmdline`, 'utf8').split('\0').join(' ').trim() }));
    const total = parts.reduce((s, x) => s + x.kib, 0);
    process.stdout.write(`${label}: ${(total / 1024).toFixed(1)} MB RSS in ${pids.length} process(es)\n`);
    for (const x of parts) process.stdout.write(`  ${(x.kib / 1024).toFixed(1).padStart(7)} MB  ${x.cmd.slice(0, 90)}\n`);
  } finally {
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
    rmSync(stateDir, { recursive: true, force: true });
  }
}

const build = spawnSync(process.execPath, ['src/cli/build.mjs', '--if-stale'], { cwd: ROOT, stdio: 'inherit' });
if (build.status !== 0) process.exit(1);
// What `npm start` runs after its build step (npm's own process, ~55 MB, is the caller's shell's business).
await measure('npm start (compiled)', process.execPath, ['--max-old-space-size=8192', 'dist/src/main.js']);
if (process.argv.includes('--tsx')) {
  await measure('tsx src/main.ts (before)', join(ROOT, 'node_modules/.bin/tsx'), ['src/main.ts']);
}
