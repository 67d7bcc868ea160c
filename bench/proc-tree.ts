// Resident memory of a whole process tree, read from /proc: a process and all its descendants (a
// wrapper's children count too), for the idle-RSS and memory-cap benches.

import { readdirSync, readFileSync } from 'node:fs';

/** Pids of `pid` and all its descendants, from /proc. */
export function tree(pid: number): number[] {
  const parent = new Map<number, number>();
  for (const d of readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const stat = readFileSync(`/proc/${d}/stat`, 'utf8');
      parent.set(Number(d), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
    } catch { /* the process ended meanwhile */ }
  }
  const out = [pid];
  for (let i = 0; i < out.length; i++) for (const [p, pp] of parent) if (pp === out[i]) out.push(p);
  return out;
}

/** VmRSS of one process in KiB (0 once it has ended). */
export function rssKiB(pid: number): number {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) : 0;
  } catch {
    return 0;
  }
}

/** The summed VmRSS of `pid`'s whole tree, in bytes. */
export function treeRssBytes(pid: number): number {
  return tree(pid).reduce((s, p) => s + rssKiB(p), 0) * 1024;
}

/** The machine's load average (1, 5, 15 min) as printed in /proc/loadavg. */
export function loadAverage(): string {
  return readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
}
