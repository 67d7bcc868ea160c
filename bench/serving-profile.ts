// Profiles ringql's cached hit path (issue 18): the server runs under `node --cpu-prof` on core 0 while
// wrk loads one cached URL from core 1; prints the self time of the costliest functions.
//   Run: node --import tsx bench/serving-profile.ts [seconds] [path] [rotated parameter]

import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { api, startRingqlPinned, TOKEN } from './serving-server.ts';
import { ensureWrk, luaScript, wrk } from './serving-load.ts';

const SECONDS = Number(process.argv[2] ?? 8);
const PATH = process.argv[3] ?? '/api/endpoints/query/usage.api-counts?interval=hourly&project=default';
/** A parameter the wrk script gives a new value each request (e.g. iso_timestamp_start for a computed logs.all). */
const ROTATE = process.argv[4];

interface ProfileNode { id: number; callFrame: { functionName: string; url: string; lineNumber: number }; children?: number[] }
interface Profile { nodes: ProfileNode[]; samples: number[]; timeDeltas: number[]; startTime: number }

/** Self time per function (name, file, line) of the samples between `from` and `to` (µs, CLOCK_MONOTONIC as V8 stamps them), costliest first. */
export function selfTimes(p: Profile, from: number, to: number): { what: string; ms: number; share: number }[] {
  const byId = new Map(p.nodes.map((n) => [n.id, n]));
  const ms = new Map<string, number>();
  let total = 0;
  let at = p.startTime;
  p.samples.forEach((id, i) => {
    at += p.timeDeltas[i] ?? 0;
    if (at < from || at > to) return;
    const n = byId.get(id)!;
    const f = n.callFrame;
    const what = `${f.functionName || '(anonymous)'} ${f.url.replace(/^.*\/wt-[a-z]+\//, '').replace(/^file:\/\//, '')}:${f.lineNumber + 1}`;
    const d = (p.timeDeltas[i] ?? 0) / 1000;
    ms.set(what, (ms.get(what) ?? 0) + d);
    total += d;
  });
  return [...ms].map(([what, t]) => ({ what, ms: t, share: t / total })).sort((a, b) => b.ms - a.ms);
}

/** Inclusive time per function name and file (each sample counted once per distinct frame on its stack), costliest first. */
export function inclusiveTimes(p: Profile, from: number, to: number): { what: string; ms: number }[] {
  const byId = new Map(p.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of p.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const name = (n: ProfileNode): string => `${n.callFrame.functionName || '(anonymous)'} ${n.callFrame.url.replace(/^.*\/(src|node_modules)\//, '$1/').replace(/^file:\/\//, '')}`;
  const ms = new Map<string, number>();
  let at = p.startTime;
  p.samples.forEach((id, i) => {
    at += p.timeDeltas[i] ?? 0;
    if (at < from || at > to) return;
    const d = (p.timeDeltas[i] ?? 0) / 1000;
    const seen = new Set<string>();
    for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur)) {
      const k = name(byId.get(cur)!);
      if (!seen.has(k)) ms.set(k, (ms.get(k) ?? 0) + d);
      seen.add(k);
    }
  });
  return [...ms].map(([what, t]) => ({ what, ms: t })).sort((a, b) => b.ms - a.ms);
}

async function main(): Promise<void> {
  await ensureWrk();
  const tmp = mkdtempSync(join(tmpdir(), 'ringql-profile-'));
  const dir = join(tmp, 'prof');
  const { server, base } = await startRingqlPinned(tmp, 100_000, ['--cpu-prof', `--cpu-prof-dir=${dir}`]);
  await api(base, PATH);
  // Ingest leaves compression and a checkpoint behind; they are not the hit path.
  await new Promise((r) => setTimeout(r, 3000));
  const from = Number(process.hrtime.bigint() / 1000n);
  const script = ROTATE ? luaScript(tmp, { rotate: { param: ROTATE } }) : undefined;
  const w = await wrk(base + PATH, { seconds: SECONDS, connections: 32, core: 1, token: TOKEN, serverPid: server.pid!, ...(script ? { script } : {}) });
  const to = Number(process.hrtime.bigint() / 1000n);
  process.stdout.write(`${w.reqPerSec.toFixed(0)} req/s, server CPU ${w.serverCpu.toFixed(2)}, wrk CPU ${w.wrkCpu.toFixed(2)}, ${(w.serverCpu * 1e6 / w.reqPerSec).toFixed(1)} CPU µs/req\n`);
  await new Promise<void>((r) => { server.once('exit', () => r()); server.kill('SIGTERM'); });
  // The main thread's profile is the first (worker threads write their own after it).
  const file = readdirSync(dir).filter((f) => f.endsWith('.cpuprofile')).sort()[0]!;
  process.stdout.write(`profile: ${join(dir, file)}\n`);
  const profile = JSON.parse(readFileSync(join(dir, file), 'utf8')) as Profile;
  const top = selfTimes(profile, from, to).slice(0, 40);
  for (const t of top) process.stdout.write(`${(t.share * 100).toFixed(1).padStart(5)}%  ${t.ms.toFixed(0).padStart(6)} ms  ${t.what}\n`);
  process.stdout.write(`inclusive (µs per request at ${w.reqPerSec.toFixed(0)} req/s over ${SECONDS} s):\n`);
  const requests = w.reqPerSec * SECONDS;
  for (const t of inclusiveTimes(profile, from, to).slice(0, 60)) process.stdout.write(`${((t.ms * 1000) / requests).toFixed(1).padStart(8)} µs  ${t.what}\n`);
}

// Only when run as a script: importing selfTimes/inclusiveTimes must not start a server.
if (import.meta.url === `file://${process.argv[1]}`) {
  main().catch((err: unknown) => {
    process.stderr.write(`serving profile failed: ${err instanceof Error ? err.stack : String(err)}\n`);
    process.exit(1);
  });
}
