// Issue 16's `ringql query` over a ~1 GB NDJSON file ÷ DuckDB reading the same file (read_json, all
// cores and 1 thread), same query shape (a count grouped by project), both one-shot processes, answers
// compared first.   Run: npx tsx bench/cli-vs-duck.ts [events]  (460,000 demo edge events ≈ 1.07 GB)

import { execFile, spawnSync } from 'node:child_process';
import { promisify } from 'node:util';
import { END_US, edgeData, type DataFile } from './data.ts';
import { loadAverage } from './proc-tree.ts';
import { CLI_NODE_FLAGS } from '../src/cli/node-flags.ts';
import { figure, progress, type Figure } from './stats.ts';

const run = promisify(execFile);
const ROOT = new URL('..', import.meta.url).pathname;
const RINGQL_SQL = 'select project, count(*) as n from `edge.logs.prod` group by project order by n desc, project limit 20';
const duckSql = (path: string): string => `select project, count(*) as n from read_json('${path.replace(/'/g, "''")}', format = 'newline_delimited') group by project order by n desc, project limit 20`;

export interface CliDuckFigures {
  data: DataFile;
  /** Wall time of the whole `ringql query` process (start, load, query, print). */
  ringql: Figure;
  /** DuckDB in its child, instance creation to rows (its Node start not counted). */
  duckAll: Figure;
  duck1: Figure;
  same: boolean;
  load: { start: string; end: string };
}

type Row = { project: string; n: number };
const norm = (rows: Row[]): string => JSON.stringify(rows.map((r) => [r.project, Number(r.n)]));

async function ringqlOnce(path: string): Promise<{ ms: number; rows: Row[] }> {
  const t = performance.now();
  // As `npx ringql` runs it: the bin's shebang flags (CLI_NODE_FLAGS), which `node file` alone would skip.
  const { stdout, stderr } = await run(process.execPath, [...CLI_NODE_FLAGS, 'src/cli/ringql.js', 'query', '--load', `edge.logs.prod=${path}`, '--now', new Date(END_US / 1000).toISOString(), '--sql', RINGQL_SQL],
    { cwd: ROOT, maxBuffer: 1 << 26 });
  const ms = performance.now() - t;
  if (/dropped/.test(stderr)) throw new Error(`cli vs duck: ringql dropped events: ${stderr.slice(-300)}`);
  return { ms, rows: (JSON.parse(stdout) as { result: Row[] }).result };
}

async function duckOnce(path: string, threads: string): Promise<{ ms: number; rows: Row[] }> {
  const { stdout } = await run(process.execPath, ['--import', 'tsx', 'bench/duck-file-child.ts', threads, duckSql(path)], { cwd: ROOT, maxBuffer: 1 << 26 });
  return JSON.parse(stdout.trim().split('\n').pop()!) as { ms: number; rows: Row[] };
}

export async function cliVsDuck(events: number, reps: number): Promise<CliDuckFigures> {
  const data = edgeData(events);
  // `ringql` runs the compiled CLI when dist/ is fresh (as after `npm start`): build it first.
  if (spawnSync(process.execPath, ['src/cli/build.mjs', '--if-stale'], { cwd: ROOT, stdio: 'inherit' }).status !== 0) throw new Error('cli vs duck: the build step failed');
  const load = loadAverage();
  const r: number[] = [], dA: number[] = [], d1: number[] = [];
  let same = true;
  for (let i = 0; i < reps; i++) {
    const a = await ringqlOnce(data.path), b = await duckOnce(data.path, 'all'), c = await duckOnce(data.path, '1');
    same &&= norm(a.rows) === norm(b.rows) && norm(b.rows) === norm(c.rows);
    r.push(a.ms); dA.push(b.ms); d1.push(c.ms);
    progress(`  ${(data.bytes / 1e9).toFixed(2)} GB: ringql query ${(a.ms / 1000).toFixed(1)} s, DuckDB all cores ${(b.ms / 1000).toFixed(1)} s, 1 thread ${(c.ms / 1000).toFixed(1)} s`);
  }
  return { data, ringql: figure(r), duckAll: figure(dA), duck1: figure(d1), same, load: { start: load, end: loadAverage() } };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  process.stdout.write(JSON.stringify(await cliVsDuck(Number(process.argv[2] ?? 460_000), Number(process.argv[3] ?? 1))) + '\n');
}
