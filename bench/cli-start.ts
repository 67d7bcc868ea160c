// Issue 16's `ringql query` process from start to exit, wall and CPU (user+sys, through /usr/bin/time): the
// bench row's query over a 3-line file (the process's own cost) and over the 1 GB file, with the bin's flags.
// Run: npx tsx bench/cli-start.ts [reps] [--root=<checkout>]... [file ...]   (roots: alternated run by run,
// to compare two builds in the same minutes; default this checkout)   (default: a 3-line head of the 460,000-event file, then it;
// RINGQL_BENCH_END_US=1795586400000000 names the file of bench/RESULTS.md)

import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { END_US, SEED, dataDir } from './data.ts';
import { loadAverage } from './proc-tree.ts';
import { CLI_NODE_FLAGS } from '../src/cli/node-flags.ts';
import { figure, type Figure } from './stats.ts';

const ROOT = new URL('..', import.meta.url).pathname;
const SQL = 'select project, count(*) as n from `edge.logs.prod` group by project order by n desc, project limit 20';

/** One run: wall and CPU seconds of the whole process, as `npx ringql` runs it. */
function once(root: string, path: string): { wall: number; cpu: number } {
  const args = ['-f', '%e %U %S', process.execPath, ...CLI_NODE_FLAGS, 'src/cli/ringql.js', 'query', '--load', `edge.logs.prod=${path}`,
    '--now', new Date(END_US / 1000).toISOString(), '--sql', SQL];
  const r = spawnSync('/usr/bin/time', args, { cwd: root, encoding: 'utf8', maxBuffer: 1 << 26 });
  if (r.status !== 0) throw new Error(`cli start: exit ${r.status}: ${r.stderr.slice(-400)}`);
  const [wall, user, sys] = r.stderr.trim().split('\n').pop()!.split(' ').map(Number) as [number, number, number];
  return { wall, cpu: user + sys };
}

const fmt = (f: Figure): string => `${f.median.toFixed(2)} s (${f.min.toFixed(2)}–${f.max.toFixed(2)})`;

if (import.meta.url === `file://${process.argv[1]}`) {
  const reps = Number(process.argv[2] ?? 10);
  // The bench's file as it is (edgeData would replace a file of an earlier hour: pin RINGQL_BENCH_END_US).
  const big = join(dataDir(), `edge-460000-s${SEED}-${END_US / 3_600_000_000}.ndjson`);
  if (!existsSync(big)) throw new Error(`cli start: no ${big}; run bench/cli-vs-duck.ts first, or set RINGQL_BENCH_END_US to its hour`);
  const tiny = join(dataDir(), 'tiny-3.ndjson');
  writeFileSync(tiny, execFileSync('head', ['-3', big]));
  const rest = process.argv.slice(3);
  const roots = rest.filter((a) => a.startsWith('--root=')).map((a) => a.slice(7));
  if (!roots.length) roots.push(ROOT);
  const given = rest.filter((a) => !a.startsWith('--root='));
  const files = given.length ? given : [tiny, big];
  for (const root of roots) {
    if (spawnSync(process.execPath, ['src/cli/build.mjs', '--if-stale'], { cwd: root, stdio: 'inherit' }).status !== 0) throw new Error(`cli start: build failed in ${root}`);
  }
  for (const file of files) {
    const load = loadAverage();
    const n = file === big ? Math.max(1, Math.ceil(reps / 3)) : reps;
    const runs = roots.map(() => [] as { wall: number; cpu: number }[]);
    for (let i = 0; i < n; i++) roots.forEach((root, k) => runs[k]!.push(once(root, file)));
    roots.forEach((root, k) => {
      const f = (pick: (r: { wall: number; cpu: number }) => number): string => fmt(figure(runs[k]!.map(pick)));
      process.stdout.write(`${root} ${file}: wall ${f((r) => r.wall)}, CPU ${f((r) => r.cpu)}, ${n} runs, load ${load} → ${loadAverage()}\n`);
    });
  }
}
