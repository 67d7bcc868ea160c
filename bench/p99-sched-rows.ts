// `perf sched timehist` rows of one core during a p99 run (bench/p99-core-probe.ts): who ran on it, how
// long the server's main thread waited to run after each wake-up, and who held the core meanwhile.

/** One switch-out: the task ran [end - runMs, end] after waiting `delayMs` to run once woken (ms; end in s). */
export interface SchedRow { end: number; comm: string; tid: number; pid: number; waitMs: number; delayMs: number; runMs: number; state: string }

// `perf sched timehist --state`: time, [cpu], comm[tid/pid] (or comm[pid]), wait, sch delay, run (ms), state at switch-out.
const ROW = /^\s*([\d.]+)\s+\[\d+\]\s+(.+?)\[(\d+)(?:\/(\d+))?\]\s+([\d.]+)\s+([\d.]+)\s+([\d.]+)\s+(\S+)\s*$/;

export function parseTimehist(text: string): SchedRow[] {
  const rows: SchedRow[] = [];
  for (const line of text.split('\n')) {
    const m = ROW.exec(line);
    if (!m) continue;
    const tid = Number(m[3]);
    rows.push({ end: Number(m[1]), comm: m[2]!, tid, pid: m[4] ? Number(m[4]) : tid, waitMs: Number(m[5]), delayMs: Number(m[6]), runMs: Number(m[7]), state: m[8]! });
  }
  return rows;
}

const label = (r: SchedRow): string => `${r.comm}[${r.pid}]`;

/** ms each process ran on the core within [from, to] (s), largest first. */
function ranBetween(rows: SchedRow[], from: number, to: number, skipPid: number): [string, number][] {
  const by = new Map<string, number>();
  for (const r of rows) {
    if (r.pid === skipPid) continue;
    const overlap = Math.min(r.end, to) - Math.max(r.end - r.runMs / 1000, from);
    if (overlap > 0) by.set(label(r), (by.get(label(r)) ?? 0) + overlap * 1000);
  }
  return [...by].sort((a, b) => b[1] - a[1]);
}

const list = (xs: [string, number][], n: number): string => xs.slice(0, n).map(([k, v]) => `${k} ${v.toFixed(1)}`).join(', ') || 'nobody';

/** Lines: the core's run time by process, the bench's own share, the server main thread's waits and who ran during the longest. */
export function coreSummary(rows: SchedRow[], serverPid: number, benchPid: number): string[] {
  if (!rows.length) return ['  perf sched: no rows'];
  const span = rows[rows.length - 1]!.end - rows[0]!.end;
  const all = ranBetween(rows, -Infinity, Infinity, -1);
  const ran = rows.filter((r) => r.tid === serverPid);
  // Runnable but not running before each run: since its wake-up (sch delay), or since it was preempted (state R at its last switch-out: the whole wait).
  const main = ran.map((r, i) => ({ ...r, delayMs: i > 0 && ran[i - 1]!.state === 'R' ? r.waitMs : r.delayMs }));
  const helpers = rows.filter((r) => r.pid === serverPid && r.tid !== serverPid).reduce((a, r) => a + r.runMs, 0);
  const waits = [...main].sort((a, b) => b.delayMs - a.delayMs);
  const over = (ms: number): number => main.filter((r) => r.delayMs > ms).length;
  const out = [
    `  core 0 over ${span.toFixed(2)} s: server main thread ran ${main.reduce((a, r) => a + r.runMs, 0).toFixed(0)} ms, its other threads ${helpers.toFixed(0)} ms; bench process ${rows.filter((r) => r.pid === benchPid).reduce((a, r) => a + r.runMs, 0).toFixed(1)} ms; others most: ${list(all.filter(([k]) => !k.endsWith(`[${serverPid}]`)), 6)} (ms)`,
    `  server main thread runnable → running (woken or preempted): ${main.length} times, over 1 ms ${over(1)}, over 2 ms ${over(2)}, over 5 ms ${over(5)}, max ${waits[0]?.delayMs.toFixed(2) ?? '-'} ms, sum ${main.reduce((a, r) => a + r.delayMs, 0).toFixed(0)} ms`,
  ];
  for (const w of waits.slice(0, 3).filter((r) => r.delayMs > 1)) {
    const start = w.end - w.runMs / 1000;
    out.push(`    waited ${w.delayMs.toFixed(2)} ms at ${start.toFixed(3)}: meanwhile on core 0 ${list(ranBetween(rows, start - w.delayMs / 1000, start, serverPid), 4)}; its own other threads ${ranBetween(rows.filter((r) => r.pid === serverPid && r.tid !== serverPid), start - w.delayMs / 1000, start, -1).reduce((a, [, v]) => a + v, 0).toFixed(2)} ms`);
  }
  return out;
}
