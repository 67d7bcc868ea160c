// bench/ndjson-chunks.ts: the engine bench's byte-path load reads a file as chunks that end at line
// ends (any chunk size, a line longer than a chunk, no final newline), and counts each line's project.

import { describe, expect, it } from 'vitest';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { countProjects, ndjsonChunks } from '../../bench/ndjson-chunks.ts';

const lines = Array.from({ length: 200 }, (_, i) => JSON.stringify({ id: i, project: `p${i % 3}`, event_message: 'x'.repeat(i * 7), metadata: { project: 'nested' } }));

async function chunksOf(text: string, size: number): Promise<Buffer[]> {
  const path = join(mkdtempSync(join(tmpdir(), 'ringql-chunks-')), 'f.ndjson');
  writeFileSync(path, text);
  const out: Buffer[] = [];
  for await (const c of ndjsonChunks(path, size)) out.push(Buffer.from(c));
  return out;
}

describe('ndjsonChunks', () => {
  it.each([16, 100, 1000, 1 << 20])('chunks of %i bytes end at line ends and together are the file', async (size) => {
    const text = lines.join('\n') + '\n';
    const chunks = await chunksOf(text, size);
    expect(Buffer.concat(chunks).toString()).toBe(text);
    for (const c of chunks) expect(c[c.length - 1]).toBe(10);
  });

  it('keeps a last line without a newline', async () => {
    const text = lines.slice(0, 5).join('\n');
    expect(Buffer.concat(await chunksOf(text, 64)).toString()).toBe(text);
  });
});

describe('countProjects', () => {
  it('counts the top-level project of each line, not a nested one', () => {
    const counts = new Map<string, number>();
    const n = countProjects(Buffer.from(lines.join('\n') + '\n'), counts);
    expect(n).toBe(200);
    expect(Object.fromEntries(counts)).toEqual({ p0: 67, p1: 67, p2: 66 });
  });
});
