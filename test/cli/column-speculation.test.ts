// The bin posts the first chunks of `ringql query`'s first file to the prestarted workers before the query is
// set up (column-prestart.ts); the load takes a result only for exactly the job it would post itself, so
// answers are the full load's either way, and a job made with other settings (a fill-in time) is not taken.

import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { prestartForQuery } from '../../src/cli/column-prestart.ts';
import { chunkJob, columnWorkerCount, firstChunks, sizeAndCuts, CHUNK_BYTES } from '../../src/cli/column-load.ts';
import { discardPrestartedWorkers, prestartColumnWorkers, prestartedCount, speculateColumnJobs, speculationStats } from '../../src/cli/column-workers.ts';
import { queryCommand, type QueryOptions } from '../../src/cli/query-command.ts';
import { SOURCES } from '../../src/store/sources.ts';
import { DEFAULT_LIMITS } from '../../src/core/limits.ts';

const dir = mkdtempSync(join(tmpdir(), 'ringql-speculate-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const NOW_US = Date.UTC(2025, 0, 15, 12) * 1000;
const NOW = new Date(NOW_US / 1000).toISOString();
const EDGE = SOURCES.find((d) => d.name === 'edge.logs.prod')!;

/** `n` lines over 5 projects; every 7th has no timestamp (the load fills in its fill-in time). */
function write(name: string, n: number, pad: number): string {
  const lines: string[] = [];
  for (let i = 0; i < n; i++) {
    const ts = NOW_US - (1 + i % 5000) * 60_000_000; // never the fill-in time itself
    const body = { project: `p${i % 5}`, event_message: `m${i} ${'x'.repeat(pad)}` };
    lines.push(JSON.stringify(i % 7 === 0 ? body : { timestamp: ts, ...body }));
  }
  const path = join(dir, name);
  writeFileSync(path, lines.join('\n') + '\n');
  return path;
}

async function run(argv: string[], opts: QueryOptions): Promise<{ code: number; out: string; columns: boolean }> {
  let out = '', columns = false;
  const code = await queryCommand(argv, { out: (s) => { out += s; }, err: () => {} }, { ...opts, onColumnLoad: () => { columns = true; } });
  return { code, out, columns };
}

// Rows stamped with the fill-in time, by project: wrong if a chunk transformed with another fill-in time were taken.
const SQL = 'select project, countif(timestamp = @t) as filled, count(*) as n from `edge.logs.prod` group by project order by project';
const PARAM = ['--param', `t=${NOW}`];

describe('speculated column chunks', { timeout: 60_000 }, () => {
  afterEach(() => discardPrestartedWorkers());

  it('the bin\'s prestart posts the first chunks of a big file with the load\'s settings, and the load takes every one', async () => {
    const file = write('big.ndjson', 150_000, 200); // ~36 MB: more 16 MiB chunks than workers
    const argv = ['--load', `edge.logs.prod=${file}`, '--now', NOW, '--sql', SQL, ...PARAM];
    const full = await run(argv, { columnLoad: false });
    const before = speculationStats().taken;
    const pre = prestartForQuery(argv);
    expect(pre?.nowUs).toBe(NOW_US);
    const posted = speculationStats().posted;
    expect(posted).toBe(Math.min(sizeAndCuts(file, CHUNK_BYTES).length - 1, firstChunks(columnWorkerCount())));
    const cols = await run(argv, { nowUs: pre!.nowUs });
    expect(cols.columns).toBe(true);
    expect(speculationStats().taken - before).toBe(posted);
    expect(cols.out).toBe(full.out);
    expect(JSON.parse(full.out).result.reduce((a: number, r: { filled: number }) => a + r.filled, 0)).toBe(Math.ceil(150_000 / 7));
  });

  it('a query the full load answers stops the prestarted workers and their chunks before it loads', async () => {
    const file = write('full.ndjson', 150_000, 200);
    const argv = ['--load', `edge.logs.prod=${file}`, '--now', NOW, '--sql', 'select event_message from `edge.logs.prod` order by timestamp desc limit 2'];
    const pre = prestartForQuery(argv);
    expect(prestartedCount()).toBe(columnWorkerCount());
    expect(speculationStats().posted).toBeGreaterThan(0);
    const r = await run(argv, { nowUs: pre!.nowUs });
    expect(r.code).toBe(0);
    expect(r.columns).toBe(false); // it reads event_message: the full load
    expect(JSON.parse(r.out).result.length).toBe(2);
    expect(prestartedCount()).toBe(0);
    expect(speculationStats().posted).toBe(0);
  });

  it('a chunk posted with another fill-in time is not taken: missing timestamps get the query\'s own', async () => {
    const file = write('small.ndjson', 3000, 40);
    const chunkBytes = 16 * 1024;
    const argv = ['--load', `edge.logs.prod=${file}`, '--now', NOW, '--sql', SQL, ...PARAM];
    const full = await run(argv, { columnLoad: false });
    const cuts = sizeAndCuts(file, chunkBytes);
    const other = { projectPath: EDGE.projectPath, maxEventDepth: DEFAULT_LIMITS.maxEventDepth, maxStringBytes: DEFAULT_LIMITS.maxFieldBytes };
    const before = speculationStats().taken;

    prestartColumnWorkers(2);
    speculateColumnJobs(Array.from({ length: firstChunks(2) }, (_, k) => chunkJob(k, file, cuts, { ...other, fillUs: NOW_US - 1 })));
    const wrong = await run(argv, { columnWorkers: 2, chunkBytes });
    expect(speculationStats().taken - before).toBe(0);
    expect(wrong.out).toBe(full.out);

    prestartColumnWorkers(2);
    speculateColumnJobs(Array.from({ length: firstChunks(2) }, (_, k) => chunkJob(k, file, cuts, { ...other, fillUs: NOW_US })));
    const right = await run(argv, { columnWorkers: 2, chunkBytes });
    expect(speculationStats().taken - before).toBe(firstChunks(2));
    expect(right.out).toBe(full.out);
  });
});
