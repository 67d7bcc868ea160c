// The server's `--trace-gc` lines during one p99 run (bench/p99-core-probe.ts): pauses by kind, placed in
// wall time from the process start (V8 stamps each line with ms since the isolate started).

import { readFileSync } from 'node:fs';

export interface GcLine { atMs: number; kind: string; pauseMs: number; beforeMb: number; afterMb: number }

// e.g. `[123:0x5d…]     4012 ms: Scavenge 25.1 (40.2) -> 24.3 (40.2) MB, 0.85 / 0.00 ms  (average mu = …`
const LINE = /\]\s+(\d+) ms: ([A-Za-z-]+(?: \([^)]*\))?) ([\d.]+) \([\d.]+\) -> ([\d.]+) \([\d.]+\) MB, ([\d.]+) \/ ([\d.]+) ms/;

export function parseGcLine(line: string): GcLine | null {
  const m = LINE.exec(line);
  return m ? { atMs: Number(m[1]), kind: m[2]!, beforeMb: Number(m[3]), afterMb: Number(m[4]), pauseMs: Number(m[5]) } : null;
}

/** Wall ms (epoch) at which process `pid` started, from /proc (10 ms ticks). */
function startedAt(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const ticks = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19]);
  const uptimeS = Number(readFileSync('/proc/uptime', 'utf8').split(' ')[0]);
  return Date.now() - uptimeS * 1000 + ticks * 10;
}

/** One line: GC pauses of `pid` whose stamp falls within [from, to] (epoch ms), by kind, with the longest, and the heap allocated per answer (at `answersPerS`) between the first and the last. */
export function gcInWindow(lines: GcLine[], pid: number, from: number, to: number, answersPerS: number): string {
  const t0 = startedAt(pid);
  const mine = lines.filter((g) => t0 + g.atMs >= from && t0 + g.atMs <= to);
  let allocatedMb = 0;
  for (let i = 1; i < mine.length; i++) allocatedMb += Math.max(0, mine[i]!.beforeMb - mine[i - 1]!.afterMb);
  const kinds = new Map<string, number[]>();
  for (const g of mine) kinds.set(g.kind, [...(kinds.get(g.kind) ?? []), g.pauseMs]);
  const parts = [...kinds].map(([k, ps]) => `${k} ${ps.length}× (sum ${ps.reduce((a, b) => a + b, 0).toFixed(1)} ms, max ${Math.max(...ps).toFixed(2)} ms, over 1 ms ${ps.filter((p) => p > 1).length})`);
  const answers = mine.length > 1 ? (answersPerS * (mine[mine.length - 1]!.atMs - mine[0]!.atMs)) / 1000 : 0;
  const perAnswer = answers > 0 ? `; ${((allocatedMb * 1e6) / answers).toFixed(0)} B allocated per answer between the first and last GC` : '';
  return `  GC during the run (${((to - from) / 1000).toFixed(1)} s): ${parts.join('; ') || 'none'}${perAnswer}`;
}
