// Garbage collection while the cached path is served at a fixed rate (issue 18 p99): a ringql server
// per source tree (this one, or the roots given, e.g. an older commit's tree) started with
// --trace-gc, the same open-loop runs against each in turn; scavenges and their pauses per 100k answers.
//   Run: node --import tsx bench/hit-gc.ts <rate> <seconds> <rounds> [tree root ..., default this one]
//   Extra node flags for every server (e.g. a fixed young generation): HIT_GC_NODE='--min-semi-space-size=16 …'

import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './http-bench.ts';
import { openLoopC, type OpenLoopCFigure } from './open-loop-c.ts';
import { api, ingest, TOKEN } from './serving-server.ts';

const [RATE, SECONDS, ROUNDS] = [Number(process.argv[2] ?? 20_000), Number(process.argv[3] ?? 6), Number(process.argv[4] ?? 3)];
// Started in this order; the first one idles through the others' ingest, which changes how V8 sizes its
// young generation (the same code measured first and second differed 10x in scavenges), so compare a tree
// against another only in the same position, or swap them over two runs.
const TREES = process.argv.length > 5 ? process.argv.slice(5) : [new URL('..', import.meta.url).pathname];
const PATH = '/api/endpoints/query/usage.api-counts?interval=hourly&project=default';
const tmp = mkdtempSync(join(tmpdir(), 'ringql-hit-gc-'));
const NODE_FLAGS = (process.env.HIT_GC_NODE ?? '').split(' ').filter(Boolean);

interface Server { tree: string; child: ChildProcess; base: string; log: string[] }

async function start(tree: string): Promise<Server> {
  const port = await freePort();
  const env = { ...process.env, PORT: String(port), HOST: '127.0.0.1', RINGQL_DEMO: '0', RINGQL_ACCESS_TOKENS: TOKEN, RINGQL_STATE_DIR: join(tmp, `state-${port}`) };
  const child = spawn('taskset', ['-c', '0', process.execPath, '--trace-gc', '--import', 'tsx', 'src/main.ts'], { cwd: tree, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  process.once('exit', () => child.kill('SIGKILL'));
  const log: string[] = [];
  await new Promise<void>((resolve, reject) => {
    const on = (d: Buffer): void => { for (const l of d.toString().split('\n')) { log.push(l); if (/ringql listening on/.test(l)) resolve(); } };
    child.stdout!.on('data', on);
    child.stderr!.on('data', on);
    child.once('exit', (c) => reject(new Error(`${tree}: exited ${c}\n${log.slice(-20).join('\n')}`)));
  });
  const base = `http://127.0.0.1:${port}`;
  await ingest(base, 100_000);
  await api(base, PATH);
  return { tree, child, base, log };
}

/** Scavenges and mark-compacts in trace-gc lines: count and pause ms each. */
function gcOf(lines: string[]): { scavenges: number; scavengeMs: number; maxScavengeMs: number; marks: number; markMs: number; reasons: Map<string, number>; allocatedMB: number } {
  const g = { scavenges: 0, scavengeMs: 0, maxScavengeMs: 0, marks: 0, markMs: 0, reasons: new Map<string, number>(), allocatedMB: 0 };
  let after: number | null = null;
  for (const l of lines) {
    const m = /: (Scavenge|Mark-Compact|Mark-sweep)[^,]*MB, ([\d.]+) \/ ([\d.]+) ms.*\) ([^;]*);/.exec(l);
    if (!m) continue;
    // Heap before this GC minus heap after the previous one: what was allocated between them.
    const sizes = /([\d.]+) \([\d.]+\) -> ([\d.]+) \([\d.]+\) MB/.exec(l);
    if (sizes && after !== null) g.allocatedMB += Math.max(0, Number(sizes[1]) - after);
    if (sizes) after = Number(sizes[2]);
    g.reasons.set(`${m[1]} ${m[4]}`, (g.reasons.get(`${m[1]} ${m[4]}`) ?? 0) + 1);
    const ms = Number(m[2]);
    if (m[1] === 'Scavenge') { g.scavenges++; g.scavengeMs += ms; g.maxScavengeMs = Math.max(g.maxScavengeMs, ms); } else { g.marks++; g.markMs += ms; }
  }
  return g;
}

async function main(): Promise<void> {
  const servers: Server[] = [];
  try {
    for (const t of TREES) servers.push(await start(t));
    process.stdout.write(`Run: ${new Date().toISOString()}, \`node --import tsx bench/hit-gc.ts ${process.argv.slice(2).join(' ')}\`; servers on core 0 with --trace-gc ${NODE_FLAGS.join(' ')}, 100000 demo events each, C generator (isolated) on core 1 at ${RATE} req/s for ${SECONDS} s.\n\n`);
    process.stdout.write('| round | tree | load avg | answered req/s | p50 / p99 / max ms | heap allocated between GCs, KB per answer | scavenges per 100k answers | scavenge pause ms per 100k answers (longest one) | mark-compact count (ms) | server waited for CPU ms/s | GCs by reason |\n|---|---|---|---|---|---|---|---|---|---|---|\n');
    // A short run first on each: every server has served the path before it is measured.
    for (const s of servers) await openLoopC(s.base + PATH, { rate: RATE, seconds: 2, connections: 16, core: 1, token: TOKEN, serverPid: s.child.pid! });
    for (let r = 0; r < ROUNDS; r++) {
      // The order alternates, so neither tree is always measured right after the other's run.
      for (const s of r % 2 ? [...servers].reverse() : servers) {
        const from = s.log.length;
        const load = readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
        const f: OpenLoopCFigure = await openLoopC(s.base + PATH, { rate: RATE, seconds: SECONDS, connections: 16, core: 1, token: TOKEN, serverPid: s.child.pid! });
        const g = gcOf(s.log.slice(from));
        const per = (x: number): string => ((x * 100_000) / f.answered).toFixed(1);
        process.stdout.write(`| ${r + 1} | ${s.tree} | ${load} | ${f.reqPerSec.toFixed(0)} | ${f.p50ms.toFixed(3)} / ${f.p99ms.toFixed(3)} / ${f.maxms.toFixed(2)} | ${((g.allocatedMB * 1024) / f.answered).toFixed(2)} | ${per(g.scavenges)} | ${per(g.scavengeMs)} (${g.maxScavengeMs.toFixed(2)}) | ${g.marks} (${g.markMs.toFixed(1)}) | ${f.serverWaitMsPerS.toFixed(1)} | ${[...g.reasons].map(([k, n]) => `${k} ${n}`).join(', ')} |\n`);
      }
    }
  } finally {
    for (const s of servers) s.child.kill('SIGTERM');
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`hit-gc failed: ${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
