// The C open-loop generator (bench/open-loop.c) for the serving bench: built once with gcc (installed
// with apt-get when missing, saying so), run pinned to a core at a fixed rate; prints the same figure
// as bench/open-loop.ts, with the server's CPU ÷ wall time alongside.

import { execFile } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { OpenLoopFigure } from './open-loop.ts';
import { cpuSeconds } from './serving-load.ts';

const run = promisify(execFile);
const root = new URL('..', import.meta.url).pathname;
let built: string | null = null;

/** Path of the built generator; gcc comes from apt-get when this machine lacks it. */
export async function buildOpenLoopC(): Promise<string> {
  if (built) return built;
  try {
    await run('gcc', ['--version']);
  } catch {
    process.stderr.write('serving bench: gcc is missing (needed for bench/open-loop.c); installing it with apt-get install -y gcc\n');
    await run('apt-get', ['install', '-y', 'gcc'], { maxBuffer: 1 << 24 });
  }
  const out = join(mkdtempSync(join(tmpdir(), 'ringql-open-loop-')), 'open-loop');
  await run('gcc', ['-O2', '-o', out, join(root, 'bench', 'open-loop.c')]);
  built = out;
  return out;
}

/** The C generator on `core` at `rate` req/s against http://127.0.0.1:<port><path>. */
export async function openLoopC(url: string, o: { rate: number; seconds: number; connections: number; core: number; token: string; serverPid: number }): Promise<OpenLoopFigure & { serverCpu: number }> {
  const bin = await buildOpenLoopC();
  const u = new URL(url);
  const cpu0 = cpuSeconds(o.serverPid);
  const t0 = performance.now();
  const { stdout } = await run('taskset', ['-c', String(o.core), bin, u.port, u.pathname + u.search, String(o.rate), String(o.seconds), String(o.connections), o.token], { maxBuffer: 1 << 20 });
  const serverCpu = (cpuSeconds(o.serverPid) - cpu0) / ((performance.now() - t0) / 1000);
  return { ...(JSON.parse(stdout) as OpenLoopFigure), serverCpu };
}
