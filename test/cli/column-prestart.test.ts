// The bin starts the column load's workers before its heavy imports when `ringql query`'s arguments may
// take the column-only load; the load then takes them instead of starting its own, and the rest are stopped.

import { afterEach, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { projectPath } from '../../src/core/project-root.ts';
import { mayLoadColumns } from '../../src/cli/column-prestart.ts';
import { discardPrestartedWorkers, prestartColumnWorkers, prestartedCount, startColumnWorkers } from '../../src/cli/column-workers.ts';

const LOAD = ['--load', 'edge.logs.prod=x.ndjson'];

describe('column worker prestart', { timeout: 20_000 }, () => {
  afterEach(() => discardPrestartedWorkers());

  it('is for a plain --sql over loaded files only', () => {
    expect(mayLoadColumns([...LOAD, '--sql', 'select 1'])).toBe(true);
    expect(mayLoadColumns([`--load=${LOAD[1]}`, '--sql=select 1', '--format', 'csv'])).toBe(true);
    expect(mayLoadColumns(['--sql', 'select 1'])).toBe(false); // nothing to load
    expect(mayLoadColumns([...LOAD, '--endpoint', 'logs.all', '--sql', 'select 1'])).toBe(false); // a sandbox query: full load
    expect(mayLoadColumns([...LOAD, '--sql', 'select 1', '--explain'])).toBe(false);
    expect(mayLoadColumns([...LOAD, '--sql', 'select 1', '--help'])).toBe(false);
    expect(mayLoadColumns([...LOAD, '--sql', 'select 1', '--sql', 'select 2'])).toBe(false); // a usage error, reported later
  });

  it('workers are taken by the next start, and those beyond its count are stopped', async () => {
    prestartColumnWorkers(2);
    expect(prestartedCount()).toBe(2);
    const pool = await startColumnWorkers(1);
    expect(pool.size).toBe(1);
    expect(prestartedCount()).toBe(0);
    await pool.close();
  });

  it('a start wanting more than were prestarted starts the rest', async () => {
    prestartColumnWorkers(1);
    const pool = await startColumnWorkers(2);
    expect(pool.size).toBe(2);
    expect(prestartedCount()).toBe(0);
    await pool.close();
  });

  it('workers no load took are stopped by discard', async () => {
    prestartColumnWorkers(2);
    await discardPrestartedWorkers();
    expect(prestartedCount()).toBe(0);
  });

  it('a chunk goes to the worker with the fewest jobs waiting, whatever its index', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ringql-colworkers-'));
    try {
      const file = join(dir, 'e.ndjson');
      writeFileSync(file, Array.from({ length: 20_000 }, (_, i) => JSON.stringify({ timestamp: 1_736_000_000_000_000 + i, project: 'p', event_message: 'x'.repeat(200) })).join('\n') + '\n');
      const pool = await startColumnWorkers(2);
      const job = (id: number) => ({ id, file, start: 0, end: statSync(file).size, projectPath: ['project'], maxEventDepth: 64, maxStringBytes: 1 << 20, fillUs: 0 });
      // Chunks 0, 2 and 4 would all go to worker 0 in turn; by jobs waiting they go 0, 1, 0.
      const runs = [0, 2, 4].map((k) => pool.run(k, job(k)));
      expect(pool.waitingCounts()).toEqual([2, 1]);
      const bodies = await Promise.all(runs);
      for (const b of bodies) expect(b.reduce((n, x) => n + x.lines, 0)).toBe(20_000);
      expect(pool.waitingCounts()).toEqual([0, 0]);
      await pool.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a start that takes prestarted workers with speculated chunks keeps the process alive until they are ready', () => {
    // In a fresh node, as the bin does: prestart, speculate, then synchronous work (the start's imports and
    // parsing) while the thread's 'ready' waits; then the load's start awaits it with nothing else alive.
    const dir = mkdtempSync(join(tmpdir(), 'ringql-colrace-'));
    try {
      const file = join(dir, 'e.ndjson');
      writeFileSync(file, Array.from({ length: 2000 }, (_, i) => JSON.stringify({ timestamp: 1_736_000_000_000_000 + i, project: 'p' })).join('\n') + '\n');
      const script = `const w = await import(${JSON.stringify(projectPath('src/cli/column-workers.ts'))});
w.prestartColumnWorkers(1);
w.speculateColumnJobs([{ id: 0, file: ${JSON.stringify(file)}, start: 0, end: ${statSync(file).size}, projectPath: ['project'], maxEventDepth: 64, maxStringBytes: 1 << 20, fillUs: 0 }]);
const until = Date.now() + 800; while (Date.now() < until);
const pool = await w.startColumnWorkers(1);
const bodies = await w.takeSpeculated(0, { id: 0, file: ${JSON.stringify(file)}, start: 0, end: ${statSync(file).size}, projectPath: ['project'], maxEventDepth: 64, maxStringBytes: 1 << 20, fillUs: 0 });
console.log(JSON.stringify({ size: pool.size, lines: bodies.reduce((n, b) => n + b.lines, 0) }));
await pool.close();`;
      // A file, not --eval: the worker threads inherit the process's flags, and --input-type is for --eval only.
      writeFileSync(join(dir, 'race.mts'), script);
      const r = spawnSync(process.execPath, ['--import', 'tsx', join(dir, 'race.mts')], { encoding: 'utf8', cwd: projectPath('.') });
      expect(r.stderr).toBe('');
      expect(r.status).toBe(0); // 13 when the event loop ran dry with the start's await pending
      expect(JSON.parse(r.stdout.trim())).toEqual({ size: 1, lines: 2000 });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
