// Issue 18's "NDJSON/CSV of 100k rows: peak RSS growth ≤ 32 MiB (streamed)" through the CLI (HTTP
// answers stop at max_limit 10 000): `ringql query --format ndjson|csv` over a generated edge NDJSON
// file, 100k rows against a one-row baseline, each in a fresh process.   Run: node --import tsx bench/cli-stream-memory.ts [rounds]

import { spawn } from 'node:child_process';
import { mkdtempSync, openSync, closeSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeNdjson } from '../src/gen/write-ndjson.ts';
import { CLI_NODE_FLAGS } from '../src/cli/node-flags.ts';

const ROUNDS = Number(process.argv[2] ?? 3);
const ROWS = 100_000;
const ROWS_SQL = `select id, timestamp, event_message, metadata from \`edge.logs.prod\` limit ${ROWS}`;
const ONE_SQL = 'select count(*) as n from `edge.logs.prod`';
/** About 55% of the generator's events are edge events: enough for 100k edge rows. */
const EVENTS = 190_000;
const root = new URL('..', import.meta.url).pathname;
const tmp = mkdtempSync(join(tmpdir(), 'ringql-cli-mem-'));
const say = (s: string): void => void process.stderr.write(`cli memory: ${s}\n`);

export interface Figure { rc: number; outBytes: number; beforeMiB: number; peakMiB: number; growthMiB: number; queryMs: number; queryCpuMs: number }

/** The child's node arguments: exactly the `ringql` bin's flags (its shebang), plus --expose-gc for the baseline. */
export function cliChildArgs(queryArgs: string[]): string[] {
  return [...CLI_NODE_FLAGS, '--expose-gc', '--import', 'tsx', 'bench/cli-memory-child.ts', ...queryArgs];
}

/** The 100k-row CSV print takes 3-4 s of CPU: on a loaded machine its wall time passed the 10 s query budget. */
function childEnv(): NodeJS.ProcessEnv {
  return { ...process.env, RINGQL_QUERY_TIMEOUT_MS: process.env.RINGQL_QUERY_TIMEOUT_MS ?? '120000' };
}

/** One CLI run in a fresh process, its stdout to a file (as `> out.ndjson` would). */
async function runCli(file: string, sql: string, format: string): Promise<Figure> {
  const out = openSync(join(tmp, `out.${format}`), 'w');
  const child = spawn(process.execPath, cliChildArgs(['--load', `edge.logs.prod=${file}`, '--sql', sql, '--format', format]), { cwd: root, stdio: ['ignore', out, 'pipe'], env: childEnv() });
  let err = '';
  child.stderr!.on('data', (d: Buffer) => { err += d.toString(); });
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  closeSync(out);
  const m = /CLI-MEMORY (\{.*\})/.exec(err);
  if (code !== 0 || !m) throw new Error(`CLI run exited ${code}:\n${err.slice(-2000)}`);
  const f = JSON.parse(m[1]!) as Figure;
  if (f.rc === 0) return f;
  // The CLI prints a query error as its JSON body on stdout (here the file): its last line says why.
  const said = readFileSync(join(tmp, `out.${format}`), 'utf8').trimEnd().split('\n').pop() ?? '';
  throw new Error(`ringql query --format ${format} answered ${f.rc} after ${(f.queryMs / 1000).toFixed(1)} s: ${said.slice(-300)}`);
}

export interface CliStreamFigure { format: string; round: number; big: Figure; base: Figure }

/** `rounds` × (100k rows, 1-row baseline) per format, each a fresh `ringql query` process. */
export async function cliStreamMemory(rounds: number): Promise<{ edgeEvents: number; edgeBytes: number; runs: CliStreamFigure[] }> {
  const { files } = await writeNdjson({ out: tmp, events: EVENTS, projects: 5, days: 7, seed: 42, endUs: Date.now() * 1000 });
  const edge = files.find((f) => f.source === 'edge.logs.prod');
  if (!edge || edge.events < ROWS) throw new Error(`only ${edge?.events} edge events`);
  say(`${edge.events} edge events, ${(edge.bytes / 2 ** 20).toFixed(1)} MiB NDJSON`);
  const runs: CliStreamFigure[] = [];
  for (const format of ['ndjson', 'csv']) {
    for (let i = 0; i < rounds; i++) {
      const big = await runCli(edge.path, ROWS_SQL, format);
      const base = await runCli(edge.path, ONE_SQL, format);
      say(`${format} round ${i + 1}: growth ${big.growthMiB.toFixed(1)} MiB (baseline ${base.growthMiB.toFixed(1)}), output ${(big.outBytes / 2 ** 20).toFixed(1)} MiB`);
      runs.push({ format, round: i + 1, big, base });
    }
  }
  return { edgeEvents: edge.events, edgeBytes: edge.bytes, runs };
}

async function main(): Promise<void> {
  const f = await cliStreamMemory(ROUNDS);
  const lines = [
    `Run: ${new Date().toISOString()}, \`node --import tsx bench/cli-stream-memory.ts ${ROUNDS}\`; ${f.edgeEvents} generated edge events (${(f.edgeBytes / 2 ** 20).toFixed(1)} MiB NDJSON) loaded by \`ringql query --load\` (node ${CLI_NODE_FLAGS.join(' ')}, the bin's flags), then \`\` --sql '${ROWS_SQL}' \`\` with stdout to a file, each run in a fresh process. Growth = VmHWM (reset after the load, a forced GC and malloc_trim) minus VmRSS then. Load average: ${readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')}.`,
    '',
    '| format | round | rows | output | RSS after load | peak RSS growth, 100k rows | peak RSS growth, 1-row baseline | query + print | CPU |',
    '|---|---|---|---|---|---|---|---|---|',
    ...f.runs.map(({ format, round, big, base }) => `| ${format} | ${round} | ${ROWS} | ${(big.outBytes / 2 ** 20).toFixed(1)} MiB | ${big.beforeMiB.toFixed(0)} MiB | **${big.growthMiB.toFixed(1)} MiB** | ${base.growthMiB.toFixed(1)} MiB | ${(big.queryMs / 1000).toFixed(2)} s | ${(big.queryCpuMs / 1000).toFixed(2)} s |`),
  ];
  process.stdout.write(lines.join('\n') + '\n');
}

if (import.meta.url === `file://${process.argv[1]}`) main().catch((err: unknown) => {
  process.stderr.write(`cli memory bench failed: ${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
