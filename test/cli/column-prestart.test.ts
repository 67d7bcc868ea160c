// The bin starts the column load's workers before its heavy imports when `ringql query`'s arguments may
// take the column-only load; the load then takes them instead of starting its own, and the rest are stopped.

import { afterEach, describe, expect, it } from 'vitest';
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
});
