// Computed logs.all over HTTP, two code trees side by side (issue 18): a ringql server from each tree and
// one raw uWS peer serving the same bytes, all on core 0, wrk -t1 -c32 on core 1 with iso_timestamp_start
// rotated; rounds alternate the trees. Prints req/s, CPU µs per request and ÷ raw per run, with load.
//   Run: node --import tsx bench/logs-all-ab.ts <seconds> <rounds> <tree-dir>... (a dir holding src/main.ts)

import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureWrk, luaScript, wrk, type WrkFigure } from './serving-load.ts';
import { api, ingest, startRawPinned, TOKEN } from './serving-server.ts';
import { freePort } from './http-bench.ts';

const SECONDS = Number(process.argv[2] ?? 6);
const ROUNDS = Number(process.argv[3] ?? 3);
const TREES = process.argv.slice(4);
const PATH = '/api/endpoints/query/logs.all?project=default';
const loadavg = (): string => readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');

/** A ringql server of `tree` on core 0 in its own session, as bench/serving-server.ts starts one. */
async function startTree(tree: string, tmp: string): Promise<{ server: ChildProcess; base: string }> {
  const port = await freePort();
  const env = { ...process.env, PORT: String(port), HOST: '127.0.0.1', RINGQL_DEMO: '0', RINGQL_ACCESS_TOKENS: TOKEN, RINGQL_STATE_DIR: join(tmp, `state-${port}`) };
  const server = spawn('taskset', ['-c', '0', process.execPath, '--import', 'tsx', 'src/main.ts'], { cwd: tree, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  process.once('exit', () => server.kill('SIGKILL'));
  await new Promise<void>((resolve, reject) => {
    let out = '';
    const on = (d: Buffer): void => { out += d.toString(); if (/ringql listening on/.test(out)) resolve(); };
    server.stdout!.on('data', on);
    server.stderr!.on('data', on);
    server.once('exit', (c) => reject(new Error(`${tree} exited (${c}):\n${out.slice(-2000)}`)));
  });
  const base = `http://127.0.0.1:${port}`;
  await ingest(base, 100_000);
  return { server, base };
}

async function main(): Promise<void> {
  await ensureWrk();
  const tmp = mkdtempSync(join(tmpdir(), 'ringql-logs-ab-'));
  const servers = [];
  for (const tree of TREES) servers.push({ tree, ...(await startTree(tree, tmp)) });
  const bodies = await Promise.all(servers.map((s) => api(s.base, PATH)));
  const sizes = bodies.map((b) => b.body.length);
  process.stdout.write(`bodies ${sizes.join(' / ')} B\n`);
  const raw = await startRawPinned(bodies[0]!.body, tmp);
  await new Promise((r) => setTimeout(r, 3000));
  const script = luaScript(tmp, { rotate: { param: 'iso_timestamp_start' } });
  const run = (base: string, pid: number): Promise<WrkFigure> => wrk(base + PATH, { seconds: SECONDS, connections: 32, core: 1, token: TOKEN, serverPid: pid, script });
  const line = (name: string, w: WrkFigure, r: WrkFigure | null): string =>
    `| ${name} | ${w.reqPerSec.toFixed(0)} | ${w.serverCpu.toFixed(2)} / ${w.wrkCpu.toFixed(2)} | ${((w.serverCpu * 1e6) / w.reqPerSec).toFixed(1)} | ${r ? (w.reqPerSec / r.reqPerSec).toFixed(3) : ''} | ${loadavg()} |\n`;
  process.stdout.write('| run | req/s | CPU server / wrk | CPU µs/req | ÷ raw req/s | load |\n|---|---|---|---|---|---|\n');
  for (let round = 0; round < ROUNDS; round++) {
    const order = round % 2 === 0 ? servers : [...servers].reverse();
    const r = await run(raw.base, raw.raw.pid!);
    process.stdout.write(line(`raw uWS (round ${round + 1})`, r, null));
    for (const s of order) process.stdout.write(line(`${s.tree} (round ${round + 1})`, await run(s.base, s.server.pid!), r));
  }
  for (const s of servers) s.server.kill('SIGTERM');
  raw.raw.kill('SIGTERM');
  process.exit(0);
}

main().catch((err: unknown) => {
  process.stderr.write(`logs.all A/B failed: ${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
