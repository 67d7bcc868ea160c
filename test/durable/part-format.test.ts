// A part file records the store's image format of its chunks: parts of another format stop the start with
// a message naming the file and both formats (nothing set aside, even with --discard-corrupt); parts
// written before the format was recorded read as format 1; the checkpointer records IMAGE_FORMAT.

import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeFileAtomic } from '../../src/durable/atomic-file.ts';
import { frame } from '../../src/durable/record-frame.ts';
import { IncompatibleStateError, encodePartFile, readPartFile } from '../../src/durable/part-file.ts';
import { writeManifest } from '../../src/durable/manifest.ts';
import { loadCheckpoint } from '../../src/durable/checkpoint-load.ts';
import { Checkpointer } from '../../src/durable/checkpointer.ts';
import { IMAGE_FORMAT } from '../../src/store/source-image.ts';
import { Wal } from '../../src/durable/wal.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const tmp = (): string => mkdtempSync(join(tmpdir(), 'ringql-format-'));

/** A part file as encodePartFile lays it out, with the header JSON given verbatim. */
function rawPart(header: object, chunks: Buffer[]): Buffer[] {
  const out = encodePartFile({ key: 'x', source: 'x', events: 0, format: IMAGE_FORMAT }, chunks);
  out[0] = frame(2, Buffer.from(JSON.stringify(header)));
  return out;
}

describe('part file image format', () => {
  it('reads a part of this format and one written before formats were recorded (as format 1)', async () => {
    const d = tmp();
    await writeFileAtomic(join(d, 'new.part'), encodePartFile({ key: 'k', source: 's', events: 2, format: IMAGE_FORMAT }, [Buffer.from('a')]));
    expect(readPartFile(join(d, 'new.part'))).toMatchObject({ key: 'k', events: 2, format: IMAGE_FORMAT });
    await writeFileAtomic(join(d, 'old.part'), rawPart({ key: 'k', source: 's', events: 2 }, [Buffer.from('a')]));
    expect(IMAGE_FORMAT).toBe(1);
    expect(readPartFile(join(d, 'old.part'))).toMatchObject({ key: 'k', format: 1 });
  });

  it('refuses a part of another format, naming the file and both formats', async () => {
    const d = tmp();
    const path = join(d, 'future.part');
    await writeFileAtomic(path, rawPart({ key: 'k', source: 's', events: 5, format: IMAGE_FORMAT + 1 }, [Buffer.from('?')]));
    expect(() => readPartFile(path)).toThrow(IncompatibleStateError);
    expect(() => readPartFile(path)).toThrow(`${path} holds image format ${IMAGE_FORMAT + 1}; this ringql reads format ${IMAGE_FORMAT}`);
    await writeFileAtomic(path, rawPart({ key: 'k', source: 's', events: 5, format: 'two' }, [Buffer.from('?')]));
    expect(() => readPartFile(path)).toThrow(/format is not an integer/);
  });

  it('stops loading the checkpoint even with discardCorrupt, setting nothing aside', async () => {
    const d = tmp();
    const part = join(d, 's--k.part');
    await writeFileAtomic(part, rawPart({ key: 'k', source: 's', events: 5, format: IMAGE_FORMAT + 1 }, [Buffer.from('?')]));
    await writeManifest(d, { id: 1, walFrom: 0, createdUs: 0, sources: [{ name: 's', parts: [{ key: 'k', file: 's--k.part', events: 5 }] }] });
    const before = readFileSync(part);
    const lines: string[] = [];
    expect(() => loadCheckpoint(d, { discardCorrupt: true, log: (l) => lines.push(l) })).toThrow(IncompatibleStateError);
    expect(lines).toEqual([]);
    expect(readdirSync(d).filter((f) => f.includes('corrupt'))).toEqual([]);
    expect(readFileSync(part).equals(before)).toBe(true);
  });

  it('stops the server\'s start with exit 1 and the message', async () => {
    const state = tmp();
    const d = join(state, 'checkpoint');
    mkdirSync(d);
    await writeFileAtomic(join(d, 's--k.part'), rawPart({ key: 'k', source: 'edge.logs.prod', events: 5, format: IMAGE_FORMAT + 1 }, [Buffer.from('?')]));
    await writeManifest(d, { id: 1, walFrom: 0, createdUs: 0, sources: [{ name: 'edge.logs.prod', parts: [{ key: 'k', file: 's--k.part', events: 5 }] }] });
    const env = { ...process.env, RINGQL_STATE_DIR: state, RINGQL_DEMO: '0', PORT: '0', RINGQL_ACCESS_TOKENS: 'tok' };
    const r = spawnSync(process.execPath, ['--import', 'tsx', 'src/main.ts', '--discard-corrupt'], { cwd: ROOT, env, encoding: 'utf8', timeout: 60_000 });
    expect(r.status).toBe(1);
    expect(r.stderr).toContain(`s--k.part holds image format ${IMAGE_FORMAT + 1}; this ringql reads format ${IMAGE_FORMAT}`);
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });

  it('the checkpointer writes IMAGE_FORMAT into every part', async () => {
    const root = tmp();
    const wal = Wal.open({ dir: join(root, 'wal'), fsync: 'always', fsyncMs: 10 }, []);
    const ck = new Checkpointer(join(root, 'checkpoint'), wal);
    const parts = [{ key: 'seg', immutable: true, events: 1, chunks: () => [Buffer.from('sealed')] }, { key: 'head', immutable: false, events: 0, chunks: () => [] }];
    expect(await ck.checkpoint([{ name: 'edge', checkpointParts: () => parts }])).toMatchObject({ partsWritten: 2 });
    const files = readdirSync(join(root, 'checkpoint')).filter((f) => f.endsWith('.part'));
    expect(files).toHaveLength(2);
    for (const f of files) expect(readPartFile(join(root, 'checkpoint', f)).format).toBe(IMAGE_FORMAT);
    // The header's bytes carry it (not only a default of the reader).
    for (const f of files) expect(readFileSync(join(root, 'checkpoint', f)).toString('latin1')).toContain(`"format":${IMAGE_FORMAT}`);
    wal.close?.();
  });
});
