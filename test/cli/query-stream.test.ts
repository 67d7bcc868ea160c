// `ringql query` prints a large result as it is made (the HTTP path's sinks and chunk sizes), not built
// whole: the body reaches the output in several pieces, with multi-byte UTF-8 kept whole across them.

import { describe, expect, it } from 'vitest';
import { queryCommand, type Io } from '../../src/cli/query-command.ts';
import { bodyPoolStats, clearBodyPool } from '../../src/core/body-pool.ts';

// 100,000 rows (GENERATE_ARRAY's cap) of ~80 bytes: past the 4 MiB at which a body starts streaming.
const ROWS = 100_000;
const PAD = 'abcdefghij'.repeat(4);
const SQL = `select x, concat('é€😀-${PAD}-', cast(x as string)) as s from unnest(generate_array(1, ${ROWS})) as x order by x`;

async function run(format: string): Promise<{ code: number; pieces: string[]; err: string }> {
  const pieces: string[] = [];
  let err = '';
  let waits = 0;
  const io: Io = { out: (s) => { pieces.push(s); }, err: (s) => { err += s; }, outReady: async () => { waits++; } };
  const code = await queryCommand(['--sql', SQL, '--format', format], io);
  expect(waits).toBeGreaterThan(0);
  return { code, pieces, err };
}

describe('ringql query streams large results', { timeout: 60_000 }, () => {
  it('NDJSON: several pieces, every row once and in order, no broken characters', async () => {
    const r = await run('ndjson');
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    expect(r.pieces.length).toBeGreaterThan(2);
    const text = r.pieces.join('');
    expect(text).not.toContain('\uFFFD');
    const lines = text.split('\n');
    expect(lines.pop()).toBe('');
    expect(lines).toHaveLength(ROWS);
    expect(JSON.parse(lines[0]!)).toEqual({ x: 1, s: `é€😀-${PAD}-1` });
    expect(JSON.parse(lines[ROWS - 1]!)).toEqual({ x: ROWS, s: `é€😀-${PAD}-${ROWS}` });
    lines.forEach((l, i) => { if (!l.endsWith(`-${i + 1}"}`)) throw new Error(`line ${i}: ${l}`); });
  });

  it('CSV and JSON: the same rows, JSON with its final newline', async () => {
    const csv = (await run('csv')).pieces.join('').split('\r\n');
    expect(csv[0]).toBe('x,s');
    expect(csv[ROWS]).toBe(`${ROWS},é€😀-${PAD}-${ROWS}`);
    expect(csv).toHaveLength(ROWS + 2);
    const json = await run('json');
    expect(json.pieces.length).toBeGreaterThan(2);
    const text = json.pieces.join('');
    expect(text.endsWith('}\n')).toBe(true);
    const body = JSON.parse(text) as { result: { x: number; s: string }[] };
    expect(body.result).toHaveLength(ROWS);
    expect(body.result[ROWS - 1]).toEqual({ x: ROWS, s: `é€😀-${PAD}-${ROWS}` });
  });

  it('bytes out: the same body as text, streamed chunks given back to the body pool once written', async () => {
    const text = (await run('ndjson')).pieces.join('');
    clearBodyPool();
    const before = bodyPoolStats().reused;
    const bufs: Buffer[] = [];
    let written = 0;
    let err = '';
    const io: Io = {
      out: (s) => { bufs.push(Buffer.from(s)); }, err: (s) => { err += s; },
      outBytes: (b, done) => { bufs.push(Buffer.from(b)); written++; done(); },
    };
    expect(await queryCommand(['--sql', SQL, '--format', 'ndjson'], io)).toBe(0);
    expect(err).toBe('');
    expect(written).toBeGreaterThan(2);
    expect(Buffer.concat(bufs).toString('utf8')).toBe(text);
    const pool = bodyPoolStats();
    expect(pool.reused - before + pool.buffers).toBeGreaterThan(0);
  });
});
