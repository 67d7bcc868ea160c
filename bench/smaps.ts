// Where a process's resident memory lies, from /proc/<pid>/smaps: the glibc main heap, 64 MiB-aligned
// glibc thread arenas, other anonymous maps (V8 pages, mmapped buffers), the node binary and other files.

import { readFileSync } from 'node:fs';

export interface SmapsGroups {
  rss: number;
  heap: number;
  arenas: number;
  arenaCount: number;
  otherAnon: number;
  binary: number;
  files: number;
  /** The five largest other anonymous maps, resident bytes with their size. */
  bigAnon: { rss: number; size: number }[];
}

const ARENA = 64 * 2 ** 20;

/** Groups the resident bytes of /proc/<pid>/smaps (default this process). */
export function smapsGroups(pid: number | 'self' = 'self'): SmapsGroups {
  const text = readFileSync(`/proc/${pid}/smaps`, 'utf8');
  const g: SmapsGroups = { rss: 0, heap: 0, arenas: 0, arenaCount: 0, otherAnon: 0, binary: 0, files: 0, bigAnon: [] };
  const exe = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0')[0] ?? '';
  let start = 0, size = 0, name = '';
  for (const line of text.split('\n')) {
    const head = /^([0-9a-f]+)-([0-9a-f]+) \S+ \S+ \S+ \S+\s*(.*)$/.exec(line);
    if (head) {
      start = parseInt(head[1]!, 16);
      size = parseInt(head[2]!, 16) - start;
      name = head[3] ?? '';
      continue;
    }
    const m = /^Rss:\s+(\d+) kB/.exec(line);
    if (!m) continue;
    const rss = Number(m[1]) * 1024;
    g.rss += rss;
    if (name === '[heap]') g.heap += rss;
    else if (name === '' && start % ARENA === 0 && size <= ARENA) { g.arenas += rss; g.arenaCount++; }
    else if (name === '' || name.startsWith('[')) { g.otherAnon += rss; g.bigAnon.push({ rss, size }); }
    else if (exe && name.endsWith(exe.split('/').pop()!)) g.binary += rss;
    else g.files += rss;
  }
  g.bigAnon = g.bigAnon.sort((a, b) => b.rss - a.rss).slice(0, 5);
  return g;
}
