// `npx tsx bench/idle-rss.ts [--tsx]`: resident memory of an empty server (RINGQL_DEMO=0) a few seconds
// after it listens, summed over its whole process tree, started as `npm start` starts it (compiled
// dist/ JS, built first when stale); `--tsx` also measures the old `tsx src/main.ts` start to compare.

import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { rssKiB, tree } from './proc-tree.ts';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const ROOT = new URL('..', import.meta.url).pathname;
const SETTLE_MS = 3000;

export interface IdleRss {
  label: string;
  /** Summed VmRSS of the process tree, bytes. */
  bytes: number;
  parts: { kib: number; cmd: string }[];
}

/** Starts `cmd args` as an empty server, waits SETTLE_MS after it listens, sums its tree's RSS. */
async function measure(label: string, cmd: string, args: string[], env: Record<string, string> = {}): Promise<IdleRss> {
  const stateDir = mkdtempSync(join(tmpdir(), 'ringql-idle-'));
  const child: ChildProcess = spawn(cmd, args, {
    cwd: ROOT,
    env: { ...process.env, ...env, RINGQL_DEMO: '0', PORT: '0', HOST: '127.0.0.1', RINGQL_STATE_DIR: stateDir },
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
    return { label, bytes: total * 1024, parts: parts.map(({ kib, cmd: c }) => ({ kib, cmd: c })) };
  } finally {
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
    rmSync(stateDir, { recursive: true, force: true });
  }
}

function print(r: IdleRss): void {
  process.stdout.write(`${r.label}: ${(r.bytes / 2 ** 20).toFixed(1)} MB RSS in ${r.parts.length} process(es)\n`);
  for (const x of r.parts) process.stdout.write(`  ${(x.kib / 1024).toFixed(1).padStart(7)} MB  ${x.cmd.slice(0, 90)}\n`);
}

/** The empty server as `npm start` runs it (compiled dist/ JS, built first when stale). */
export async function idleRss(): Promise<IdleRss> {
  const build = spawnSync(process.execPath, ['src/cli/build.mjs', '--if-stale'], { cwd: ROOT, stdio: 'inherit' });
  if (build.status !== 0) throw new Error('idle RSS: the build step (src/cli/build.mjs) failed');
  // What `npm start` runs after its build step (npm's own process, ~55 MB, is the caller's shell's business):
  // node with the flags dist/src/cli/node-flags.js derives from the environment, glibc held to 2 arenas.
  const flags = spawnSync(process.execPath, ['dist/src/cli/node-flags.js'], { cwd: ROOT, encoding: 'utf8' });
  if (flags.status !== 0) throw new Error(`idle RSS: dist/src/cli/node-flags.js failed: ${flags.stderr}`);
  const args = [...flags.stdout.trim().split(/\s+/).filter(Boolean), 'dist/src/main.js'];
  return measure('npm start (compiled)', process.execPath, args, { MALLOC_ARENA_MAX: process.env.MALLOC_ARENA_MAX ?? '2' });
}

if (import.meta.url === `file://${process.argv[1]}`) {
  print(await idleRss());
  if (process.argv.includes('--tsx')) print(await measure('tsx src/main.ts (before)', join(ROOT, 'node_modules/.bin/tsx'), ['src/main.ts']));
}
