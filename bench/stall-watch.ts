// Diagnostic preload (`node --import tsx --import ./bench/stall-watch-main.mjs …`, which skips worker threads): logs every main-thread stall over
// STALL_WATCH_MS (default 3) to STALL_WATCH_OUT: long timer/immediate/IO callbacks with their origin, and
// 1 ms heartbeat gaps split by the main thread's schedstat into own work and waiting for the CPU, plus GC.

import { createHook } from 'node:async_hooks';
import { appendFileSync, openSync, readSync } from 'node:fs';
import { PerformanceObserver } from 'node:perf_hooks';

const OUT = process.env.STALL_WATCH_OUT ?? `/tmp/stall-watch-${process.pid}.log`;
const LIMIT_MS = Number(process.env.STALL_WATCH_MS ?? 3);
const origins = new Map<number, string>();
const started = new Map<number, { wall: number; cpu: NodeJS.CpuUsage; wait: number }>();
const types = new Map<number, string>();
let gcMs = 0;
let callbackMs = 0;
const since0 = performance.now();
const at = (): string => `${((performance.now() - since0) / 1000).toFixed(3)}s`;
const log = (line: string): void => appendFileSync(OUT, `${at()} ${line}\n`);

// The main thread's own figures: ns on the CPU and ns runnable but waiting for it (preempted).
const schedFd = openSync('/proc/thread-self/schedstat', 'r');
const schedBuf = Buffer.alloc(128);
function sched(): { run: number; wait: number } {
  const n = readSync(schedFd, schedBuf, 0, 128, 0);
  const [run, wait] = schedBuf.toString('latin1', 0, n).split(' ').map(Number);
  return { run: run! / 1e6, wait: wait! / 1e6 };
}

/** The first stack frames outside node internals and this file: where a timer or immediate was made. */
function origin(): string {
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 40;
  const frames = (new Error().stack ?? '').split('\n').slice(1).map((l) => l.trim());
  Error.stackTraceLimit = limit;
  const ours = frames.filter((f) => !f.includes('node:') && !f.includes('stall-watch'));
  return ours.slice(0, 4).join(' < ') || frames.filter((f) => !f.includes('stall-watch')).slice(0, 6).join(' < ');
}

createHook({
  init(id, type) {
    if (type === 'PROMISE') return;
    types.set(id, type);
    if (type === 'Timeout' || type === 'Immediate') origins.set(id, origin());
  },
  before(id) { started.set(id, { wall: performance.now(), cpu: process.cpuUsage(), wait: sched().wait }); },
  after(id) {
    const t0 = started.get(id);
    if (t0 === undefined) return;
    started.delete(id);
    const ms = performance.now() - t0.wall;
    callbackMs += ms;
    if (ms <= LIMIT_MS) return;
    const cpu = process.cpuUsage(t0.cpu);
    const wait = sched().wait - t0.wait;
    // A task that mostly waited for the CPU is another process's doing, not its own: left out.
    if (wait < ms / 2) log(`task ${ms.toFixed(1)} ms (process cpu ${((cpu.user + cpu.system) / 1000).toFixed(1)} ms, main thread waiting for the CPU ${wait.toFixed(1)} ms) ${types.get(id)} from ${origins.get(id) ?? '?'}`);
  },
  destroy(id) { origins.delete(id); types.delete(id); started.delete(id); },
}).enable();

new PerformanceObserver((list) => {
  for (const e of list.getEntries()) {
    gcMs += e.duration;
    if (e.duration > LIMIT_MS) log(`gc ${e.duration.toFixed(1)} ms kind ${(e as unknown as { detail?: { kind?: number } }).detail?.kind}`);
  }
}).observe({ entryTypes: ['gc'] });

// A 1 ms heartbeat: a gap over the limit is a stall; what the process did during it tells its nature.
let last = performance.now();
let lastCpu = process.cpuUsage();
let lastRu = process.resourceUsage();
let lastSched = sched();
let lastGc = 0;
let lastCb = 0;
const heartbeat = setInterval(() => {
  const now = performance.now();
  const gap = now - last;
  if (gap > LIMIT_MS + 1) {
    const cpu = process.cpuUsage(lastCpu);
    const ru = process.resourceUsage();
    const sc = sched();
    log(`gap ${gap.toFixed(1)} ms: main thread on cpu ${(sc.run - lastSched.run).toFixed(1)} ms, waiting for it ${(sc.wait - lastSched.wait).toFixed(1)} ms; process cpu ${((cpu.user + cpu.system) / 1000).toFixed(1)} ms (sys ${(cpu.system / 1000).toFixed(1)}), ` +
      `gc ${(gcMs - lastGc).toFixed(1)} ms, hooked callbacks ${(callbackMs - lastCb).toFixed(1)} ms, ` +
      `involuntary switches ${ru.involuntaryContextSwitches - lastRu.involuntaryContextSwitches}, voluntary ${ru.voluntaryContextSwitches - lastRu.voluntaryContextSwitches}`);
  }
  lastCpu = process.cpuUsage();
  lastRu = process.resourceUsage();
  lastSched = sched();
  last = now;
  lastGc = gcMs;
  lastCb = callbackMs;
}, 1);
heartbeat.unref();
log(`stall-watch on, pid ${process.pid}, limit ${LIMIT_MS} ms`);
