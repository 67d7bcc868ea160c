// Ingest bench (issue 16): in-process cost ÷ JSON.parse, ingest over HTTP in 500-event bodies (the
// server in its own process, write-ahead log on), and the demo load time of `npm start`, for the demo
// generator's events and ~600 B edge events. Usage: npx tsx bench/ingest-bench.ts [events]; writes bench/INGEST.md.

import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir, loadavg, cpus } from 'node:os';
import { join } from 'node:path';
import { spawn } from 'node:child_process';
import { demoBodies, smallEdgeBodies, type Body } from './ingest-corpus.ts';
import { inproc } from './ingest-inproc.ts';
import { freePort, startMainProcess } from '../test/helpers/main-process.ts';

const TOKEN = 'bench-token';
const EVENTS = Number(process.argv[2] ?? 60_000);

/** CPU seconds (user + system) a process of ours has used so far, from /proc. */
function procCpuS(pid: number): number {
  const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(f[11]) + Number(f[12])) / 100;
}

export async function httpIngest(bodies: Body[], inflight = 4): Promise<{ eventsPerS: number; clientCpu: number; serverCpuUs: number }> {
  const port = await freePort();
  const child = await startMainProcess(port, {
    RINGQL_ACCESS_TOKENS: TOKEN, RINGQL_STATE_DIR: mkdtempSync(join(tmpdir(), 'ringql-ingest-bench-')),
    RINGQL_RETENTION_HOURS: String(24 * 365), RINGQL_MAX_ROWS_PER_SOURCE: '50000000', RINGQL_MAX_BYTES_PER_SOURCE: String(32 * 2 ** 30),
  });
  try {
    let next = 0, events = 0;
    const cpu0 = process.cpuUsage(), t = performance.now(), server0 = procCpuS(child.pid!);
    const worker = async (): Promise<void> => {
      while (next < bodies.length) {
        const b = bodies[next++]!;
        const r = await fetch(`http://127.0.0.1:${port}/api/logs?source_name=${b.source}`, { method: 'POST', headers: { 'X-API-KEY': TOKEN, 'Content-Type': 'application/json' }, body: b.bytes });
        if (r.status !== 200) throw new Error(`ingest answered ${r.status}: ${(await r.text()).slice(0, 300)}`);
        await r.arrayBuffer();
        events += b.events;
      }
    };
    await Promise.all(Array.from({ length: inflight }, worker));
    const ms = performance.now() - t, cpu = process.cpuUsage(cpu0), serverS = procCpuS(child.pid!) - server0;
    return { eventsPerS: events / (ms / 1000), clientCpu: (cpu.user + cpu.system) / 1000 / ms, serverCpuUs: (serverS * 1e6) / events };
  } finally {
    child.kill('SIGTERM');
  }
}

/** Seconds from spawning `src/main.ts` with RINGQL_DEMO=1 to its "listening" line. */
export async function demoLoad(): Promise<{ toServingS: number; cpuS: number; loadLine: string }> {
  const port = await freePort();
  const t = performance.now();
  const child = spawn(process.execPath, ['--max-old-space-size=8192', '--import', 'tsx', 'src/main.ts'], {
    cwd: new URL('..', import.meta.url).pathname,
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', RINGQL_DEMO: '1', RINGQL_ACCESS_TOKENS: TOKEN, RINGQL_STATE_DIR: mkdtempSync(join(tmpdir(), 'ringql-demo-bench-')) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  await new Promise<void>((resolve, reject) => {
    const on = (d: Buffer): void => { out += d.toString(); if (out.includes('ringql listening on')) resolve(); };
    child.stdout!.on('data', on);
    child.stderr!.on('data', on);
    child.once('exit', (c) => reject(new Error(`exited ${c}: ${out.slice(-500)}`)));
  });
  const s = (performance.now() - t) / 1000, cpuS = procCpuS(child.pid!);
  child.kill('SIGTERM');
  return { toServingS: s, cpuS, loadLine: /demo: loaded \d+ events in [\d.]+ s/.exec(out)?.[0] ?? '' };
}

// The CLI run (bench/run.ts imports the functions above without it).
if (import.meta.url === `file://${process.argv[1]}`) {
const now = Date.now() * 1000;
const L: string[] = ['# Ingest bench (issue 16)', '', `Run ${new Date().toISOString()}; ${cpus().length} cores, load average at start ${loadavg().map((x) => x.toFixed(1)).join(' ')} (a shared machine: absolute figures scale with the load, ratios hold better).`, ''];
L.push('| corpus | events | bytes/event | JSON.parse µs/event | reference µs/event | byte path µs/event | byte path ÷ JSON.parse | reference ÷ JSON.parse | HTTP events/s wall (500/body, 4 in flight, WAL on) | server CPU µs/event → events per server CPU-second | client CPU |', '|---|---|---|---|---|---|---|---|---|---|---|');
for (const [name, bodies] of [['demo generator', demoBodies(EVENTS, now)], ['~600 B edge events', smallEdgeBodies(EVENTS, now)]] as const) {
  const f = inproc(bodies, now);
  const h = await httpIngest(bodies);
  L.push(`| ${name} | ${f.events} | ${(f.bytes / f.events).toFixed(0)} | ${f.parseUs.toFixed(2)} | ${f.referenceUs.toFixed(2)} | ${f.bytePathUs.toFixed(2)} | ${(f.bytePathUs / f.parseUs).toFixed(2)} | ${(f.referenceUs / f.parseUs).toFixed(2)} | ${h.eventsPerS.toFixed(0)} | ${h.serverCpuUs.toFixed(1)} → ${(1e6 / h.serverCpuUs).toFixed(0)} | ${(h.clientCpu * 100).toFixed(0)}% of a core |`);
  process.stderr.write(L[L.length - 1] + '\n');
}
const d = await demoLoad();
L.push('', `Demo load (\`RINGQL_DEMO=1\`, 300,000 events): ${d.toServingS.toFixed(1)} s wall from spawn to serving, ${d.cpuS.toFixed(1)} s of its CPU (${d.loadLine}).`, `Load average at end: ${loadavg().map((x) => x.toFixed(1)).join(' ')}.`, '');
writeFileSync(new URL('INGEST.md', import.meta.url), L.join('\n'));
process.stderr.write(L.slice(-3).join('\n') + '\n');
}
