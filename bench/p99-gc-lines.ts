// The server's `--trace-gc` lines during one p99 run (bench/p99-core-probe.ts): pauses by kind, placed in
// wall time from the process start (V8 stamps each line with ms since the isolate started).

import { readFileSync } from 'node:fs';

export interface GcLine { atMs: number; kind: string; pauseMs: number }

const LINE = /\]\s+(\d+) ms: ([A-Za-z-]+(?: \([^)]*\))?)[^,]*, ([\d.]+) \/ ([\d.]+) ms/;

export function parseGcLine(line: string): GcLine | null {
  const m = LINE.exec(line);
  return m ? { atMs: Number(m[1]), kind: m[2]!, pauseMs: Number(m[3]) } : null;
}

/** Wall ms (epoch) at which process `pid` started, from /proc (10 ms ticks). */
function startedAt(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const ticks = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19]);
  const uptimeS = Number(readFileSync('/proc/uptime', 'utf8').split(' ')[0]);
  return Date.now() - uptimeS * 1000 + ticks * 10;
}

/** One line: GC pauses of `pid` whose stamp falls within [from, to] (epoch ms), by kind, with the longest. */
export function gcInWindow(lines: GcLine[], pid: number, from: number, to: number): string {
  const t0 = startedAt(pid);
  const mine = lines.filter((g) => t0 + g.atMs >= from && t0 + g.atMs <= to);
  const kinds = new Map<string, number[]>();
  for (const g of mine) kinds.set(g.kind, [...(kinds.get(g.kind) ?? []), g.pauseMs]);
  const parts = [...kinds].map(([k, ps]) => `${k} ${ps.length}× (sum ${ps.reduce((a, b) => a + b, 0).toFixed(1)} ms, max ${Math.max(...ps).toFixed(2)} ms, over 1 ms ${ps.filter((p) => p > 1).length})`);
  return `  GC during the run (${((to - from) / 1000).toFixed(1)} s): ${parts.join('; ') || 'none'}`;
}
