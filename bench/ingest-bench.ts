// Ingest bench (issue 16): in-process cost ÷ JSON.parse, ingest over HTTP in 500-event bodies (the
// server in its own process, write-ahead log on), and the demo load time of `npm start`, for the demo
// generator's events and ~600 B edge events. Usage: npx tsx bench/ingest-bench.ts [events]; writes bench/INGEST.md.

import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir, loadavg, cpus } from 'node:os';
import { join } from 'node:path';
import { spawn, spawnSync } from 'node:child_process';
import { pathToFileURL } from 'node:url';
import { demoBodies, smallEdgeBodies } from './ingest-corpus.ts';
import { inprocInChild, type InprocFigure } from './ingest-inproc.ts';
import { HTTP_CORPUS_TIMES, HTTP_INFLIGHT, generatorCeiling, httpIngest, httpPasses, type HttpFigure } from './ingest-http.ts';
import { freePort } from '../test/helpers/main-process.ts';
import { nodeFlags } from '../src/cli/node-flags.ts';

const TOKEN = 'bench-token';

export interface CorpusFigures {
  name: string;
  inproc: InprocFigure;
  http: HttpFigure;
  /** The load generator against a server that only drains bodies. */
  generator: { eventsPerS: number; clientCpu: number };
}

export interface DemoFigure {
  /** To `ringql listening on` (the server listens once the demo's first batch is stored), and its CPU then. */
  toServingS: number;
  cpuS: number;
  /** To `demo: loaded N events in` (every demo event stored), and its CPU then. */
  toLoadedS: number;
  loadedCpuS: number;
  peakRssMiB: number;
  loadLine: string;
}

export interface IngestFigures {
  startedAt: string;
  cores: number;
  loadStart: number[];
  loadEnd: number[];
  corpora: CorpusFigures[];
  demo: DemoFigure;
}

/** CPU seconds (user + system, all threads) a process of ours has used so far, from /proc. */
function procCpuS(pid: number): number {
  const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(f[11]) + Number(f[12])) / 100;
}

/**
 * Seconds from spawning the server as `npm start` does (compiled dist/, built first when stale, its node
 * flags and MALLOC_ARENA_MAX) with
 * RINGQL_DEMO=1 to its "listening" line (the demo's first batch stored) and to every demo event stored.
 */
export async function demoLoad(): Promise<DemoFigure> {
  const cwd = new URL('..', import.meta.url).pathname;
  const built = spawnSync(process.execPath, ['src/cli/build.mjs', '--if-stale'], { cwd, stdio: 'inherit' });
  if (built.status !== 0) throw new Error('the build of dist/ failed');
  const port = await freePort();
  const t = performance.now();
  // npm start's node flags (V8 heap limit, young-generation cap) and glibc arenas, as it runs the server.
  const child = spawn(process.execPath, [...nodeFlags(process.env), 'dist/src/main.js'], {
    cwd,
    env: { ...process.env, MALLOC_ARENA_MAX: process.env.MALLOC_ARENA_MAX ?? '2', PORT: String(port), HOST: '127.0.0.1', RINGQL_DEMO: '1', RINGQL_ACCESS_TOKENS: TOKEN, RINGQL_STATE_DIR: mkdtempSync(join(tmpdir(), 'ringql-demo-bench-')) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let serving: [number, number] | null = null, loaded: [number, number] | null = null;
  await new Promise<void>((resolve, reject) => {
    const on = (d: Buffer): void => {
      out += d.toString();
      const at = (): [number, number] => [(performance.now() - t) / 1000, procCpuS(child.pid!)];
      if (!serving && out.includes('ringql listening on')) serving = at();
      if (!loaded && /demo: loaded \d+ events in/.test(out)) loaded = at();
      if (serving && loaded) resolve();
    };
    child.stdout!.on('data', on);
    child.stderr!.on('data', on);
    child.once('exit', (c) => reject(new Error(`exited ${c}: ${out.slice(-500)}`)));
  });
  const [s, cpuS] = serving!, [toLoadedS, loadedCpuS] = loaded!;
  const hwm = /VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${child.pid!}/status`, 'utf8'))?.[1];
  child.kill('SIGTERM');
  return { toServingS: s, cpuS, toLoadedS, loadedCpuS, peakRssMiB: Math.round(Number(hwm) / 1024), loadLine: /demo: loaded \d+ events in [\d.]+ s/.exec(out)?.[0] ?? '' };
}

/** Every figure of the ingest bench, for `events` events per corpus. */
export async function ingestFigures(events: number, inflight = 4): Promise<IngestFigures> {
  const startedAt = new Date().toISOString(), loadStart = loadavg();
  const now = Date.now() * 1000;
  const corpora: CorpusFigures[] = [];
  for (const [name, corpus, make] of [['demo generator', 'demo', demoBodies], ['~600 B edge events', 'small', smallEdgeBodies]] as const) {
    const bodies = make(events, now);
    const f = await inprocInChild(corpus, events, now);
    const generator = await generatorCeiling(bodies, Math.max(inflight, ...HTTP_INFLIGHT));
    const { warm, levels } = httpPasses(make(events * HTTP_CORPUS_TIMES, now), events);
    const http = await httpIngest(warm, levels);
    corpora.push({ name, inproc: f, http, generator });
  }
  const demo = await demoLoad();
  return { startedAt, cores: cpus().length, loadStart, loadEnd: loadavg(), corpora, demo };
}

const load = (l: number[]): string => l.map((x) => x.toFixed(1)).join(' ');

/** bench/INGEST.md's text for `f`. */
export function ingestMarkdown(f: IngestFigures, inflight = 4): string {
  const L: string[] = ['# Ingest bench (issue 16)', '', `Run ${f.startedAt}; ${f.cores} cores, load average at start ${load(f.loadStart)} (a shared machine: absolute figures scale with the load, ratios hold better).`, ''];
  L.push(`| corpus | events | bytes/event | JSON.parse µs/event | reference µs/event | byte path µs/event | byte path ÷ JSON.parse | its transform / store part / compression µs/event | store part (main thread) ÷ JSON.parse | reference ÷ JSON.parse | HTTP events/s wall (500/body, best of ${HTTP_INFLIGHT.join(" / ")} in flight, WAL on) | server CPU µs/event: all threads / main thread | load generator alone, events/s (its CPU) | client CPU during the HTTP run |`, '|---|---|---|---|---|---|---|---|---|---|---|---|---|---|');
  for (const c of f.corpora) {
    const p = c.inproc, h = c.http;
    L.push(`| ${c.name} | ${p.events} | ${(p.bytes / p.events).toFixed(0)} | ${p.parseUs.toFixed(2)} | ${p.referenceUs.toFixed(2)} | ${p.bytePathUs.toFixed(2)} | ${(p.bytePathUs / p.parseUs).toFixed(2)} | ${p.transformUs.toFixed(2)} / ${p.storeUs.toFixed(2)} / ${p.compressUs.toFixed(2)} | ${(p.storeUs / p.parseUs).toFixed(2)} | ${(p.referenceUs / p.parseUs).toFixed(2)} | ${h.eventsPerS.toFixed(0)} | ${h.serverCpuUs.toFixed(1)} / ${h.mainThreadCpuUs.toFixed(1)} | ${c.generator.eventsPerS.toFixed(0)} (${(c.generator.clientCpu * 100).toFixed(0)}% of a core) | ${(h.clientCpu * 100).toFixed(0)}% of a core |`);
  }
  const d = f.demo;
  L.push('', `Demo load (\`RINGQL_DEMO=1\`, 300,000 events): ${d.toServingS.toFixed(1)} s wall from spawning \`node dist/src/main.js\` (as \`npm start\` does) to serving (${d.cpuS.toFixed(1)} CPU-s), ${d.toLoadedS.toFixed(1)} s to every demo event stored (${d.loadedCpuS.toFixed(1)} s of its CPU, all threads), peak RSS ${d.peakRssMiB} MiB (${d.loadLine}).`, `Load average at end: ${load(f.loadEnd)}.`, '');
  return L.join('\n');
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const f = await ingestFigures(Number(process.argv[2] ?? 60_000));
  const md = ingestMarkdown(f);
  writeFileSync(new URL('INGEST.md', import.meta.url), md);
  process.stderr.write(md);
}
