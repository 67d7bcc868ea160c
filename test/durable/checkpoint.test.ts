// Checkpoints over real files: part files and the manifest round-trip and detect damage with file and
// offset; a checkpoint writes sealed parts once, snapshots mutable ones, cuts the write-ahead log past
// itself, and recovery replays only the records after it (leftover older log files are removed, never replayed).

import { existsSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeFileAtomic } from '../../src/durable/atomic-file.ts';
import { Checkpointer, partFileName, type Checkpointable, type CheckpointPart } from '../../src/durable/checkpointer.ts';
import { loadCheckpoint } from '../../src/durable/checkpoint-load.ts';
import { readManifest } from '../../src/durable/manifest.ts';
import { CorruptStateError, encodePartFile, readPartFile } from '../../src/durable/part-file.ts';
import { RECORD_BATCH } from '../../src/durable/record-frame.ts';
import { Wal, listWalFiles } from '../../src/durable/wal.ts';
import { recoverWal } from '../../src/durable/wal-recovery.ts';

const tmp = (): string => mkdtempSync(join(tmpdir(), 'ringql-ckpt-'));

/** A source whose state is a list of sealed chunks plus a mutable tail, as the store will offer it. */
class TestSource implements Checkpointable {
  sealed: { key: string; data: string }[] = [];
  tail: string[] = [];
  chunkCalls = 0;
  constructor(readonly name: string) {}
  checkpointParts(): CheckpointPart[] {
    const parts: CheckpointPart[] = this.sealed.map((s) => ({ key: s.key, immutable: true, events: 1, chunks: () => { this.chunkCalls++; return [Buffer.from(s.data)]; } }));
    const tail = [...this.tail];
    parts.push({ key: 'head', immutable: false, events: tail.length, chunks: () => tail.map((t) => Buffer.from(t)) });
    return parts;
  }
}

function replay(walDir: string, fromSeq: number): number[] {
  const got: number[] = [];
  recoverWal({ dir: walDir, discardCorrupt: false, log: () => {}, fromSeq }, (_t, p) => {
    got.push(Number(p.toString()));
    return { events: 1, maxTs: 0 };
  });
  return got;
}

describe('part files', () => {
  it('round-trip their chunks and header', async () => {
    const d = tmp();
    const path = join(d, 'a.part');
    await writeFileAtomic(path, encodePartFile({ key: 'k1', source: 'edge', events: 7, format: 1 }, [Buffer.from('one'), Buffer.alloc(0), Buffer.from('three')]));
    const p = readPartFile(path);
    expect(p).toMatchObject({ key: 'k1', source: 'edge', events: 7 });
    expect(p.chunks.map(String)).toEqual(['one', '', 'three']);
    expect(readdirSync(d)).toEqual(['a.part']);
  });

  it('report a flipped byte, a cut file and trailing bytes with the file and offset', async () => {
    const d = tmp();
    const path = join(d, 'b.part');
    await writeFileAtomic(path, encodePartFile({ key: 'k', source: 's', events: 3, format: 1 }, [Buffer.from('a'.repeat(100)), Buffer.from('b'.repeat(100))]));
    const good = readFileSync(path);
    const flipped = Buffer.from(good);
    flipped[good.length - 40] ^= 0xff;
    writeFileSync(path, flipped);
    expect(() => readPartFile(path)).toThrow(CorruptStateError);
    try { readPartFile(path); } catch (e) {
      expect((e as CorruptStateError).file).toBe(path);
      expect((e as CorruptStateError).offset).toBeGreaterThan(0);
      expect((e as Error).message).toMatch(/ringql repair.*3 events/);
    }
    writeFileSync(path, good.subarray(0, good.length - 10));
    expect(() => readPartFile(path)).toThrow(/cut short|before its trailer/);
    writeFileSync(path, Buffer.concat([good, Buffer.from('x')]));
    expect(() => readPartFile(path)).toThrow(/after the trailer/);
  });

  it('names stay distinct when keys need escaping', () => {
    expect(partFileName('edge.logs.prod', 'seg-12', null)).toBe('edge.logs.prod--seg-12.part');
    expect(partFileName('a', 'x/y', null)).not.toBe(partFileName('a', 'x_y', null));
    expect(partFileName('a--b', 'c', null)).not.toBe(partFileName('a', 'b--c', null));
    expect(partFileName('a', 'head', 4)).toBe('a--head--4.part');
  });
});

describe('checkpoints', () => {
  it('cut the log past themselves; recovery = parts + the records after them', async () => {
    const root = tmp();
    const walDir = join(root, 'wal'), ckDir = join(root, 'checkpoint');
    const wal = Wal.open({ dir: walDir, fsync: 'always', fsyncMs: 10 }, []);
    const src = new TestSource('edge');
    for (let i = 0; i < 5; i++) wal.appendSync(RECORD_BATCH, Buffer.from(String(i)), 0);
    src.sealed.push({ key: 's1', data: 'sealed-one' });
    src.tail.push('t0', 't1');
    const ck = new Checkpointer(ckDir, wal);
    const r1 = (await ck.checkpoint([src]))!;
    expect(r1).toMatchObject({ id: 1, partsWritten: 2 });
    expect(listWalFiles(walDir).map((f) => f.seq)).toEqual([r1.walFrom]);
    for (let i = 5; i < 8; i++) wal.appendSync(RECORD_BATCH, Buffer.from(String(i)), 0);
    await wal.close();

    const loaded = loadCheckpoint(ckDir, { discardCorrupt: false, log: () => {} })!;
    expect(loaded.manifest.walFrom).toBe(r1.walFrom);
    expect(loaded.sources.get('edge')!.map((p) => p.chunks.map(String))).toEqual([['sealed-one'], ['t0', 't1']]);
    expect(replay(walDir, loaded.manifest.walFrom)).toEqual([5, 6, 7]);
  });

  it('write a sealed part once, snapshot the mutable part each time, and delete what the new manifest drops', async () => {
    const root = tmp();
    const ckDir = join(root, 'checkpoint');
    const wal = Wal.open({ dir: join(root, 'wal'), fsync: 'interval', fsyncMs: 10 }, []);
    const src = new TestSource('edge');
    src.sealed.push({ key: 's1', data: 'one' }, { key: 's2', data: 'two' });
    const ck = new Checkpointer(ckDir, wal);
    await ck.checkpoint([src]);
    expect(src.chunkCalls).toBe(2);
    src.sealed = [{ key: 's2', data: 'two' }, { key: 's3', data: 'three' }];
    src.tail = ['after'];
    const r2 = (await ck.checkpoint([src]))!;
    expect(src.chunkCalls).toBe(3);
    expect(r2.partsWritten).toBe(2);
    expect(readdirSync(ckDir).sort()).toEqual(['MANIFEST', 'edge--head--2.part', 'edge--s2.part', 'edge--s3.part']);
    expect(ck.stats()).toMatchObject({ last_checkpoint_id: 2, part_files: 3 });
    expect(ck.stats().disk_bytes).toBe(readdirSync(ckDir).reduce((n, f) => n + statSync(join(ckDir, f)).size, 0));
    await wal.close();
  });

  it('a checkpoint the mutable snapshot of which was taken earlier does not see later changes', async () => {
    const root = tmp();
    const wal = Wal.open({ dir: join(root, 'wal'), fsync: 'interval', fsyncMs: 10 }, []);
    const src = new TestSource('edge');
    src.tail = ['a'];
    const ck = new Checkpointer(join(root, 'checkpoint'), wal);
    const p = ck.checkpoint([src]);
    src.tail.push('b');
    wal.appendSync(RECORD_BATCH, Buffer.from('9'), 0);
    await p;
    await wal.close();
    const loaded = loadCheckpoint(join(root, 'checkpoint'), { discardCorrupt: false, log: () => {} })!;
    expect(loaded.sources.get('edge')![0]!.chunks.map(String)).toEqual(['a']);
    expect(replay(join(root, 'wal'), loaded.manifest.walFrom)).toEqual([9]);
  });

  it('logs each checkpoint once, with the reason of the call that started it, however many calls wait for it', async () => {
    const root = tmp();
    const wal = Wal.open({ dir: join(root, 'wal'), fsync: 'interval', fsyncMs: 10 }, []);
    const lines: string[] = [];
    const ck = new Checkpointer(join(root, 'checkpoint'), wal, (l) => lines.push(l));
    const src = new TestSource('edge');
    src.sealed.push({ key: 's1', data: 'x'.repeat(100) });
    // The housekeeping asks every second while one runs; each call gets the running checkpoint.
    const calls = [ck.checkpoint([src], 'log size'), ck.checkpoint([src], 'log size'), ck.checkpoint([src], 'eviction')];
    const reports = await Promise.all(calls);
    expect(new Set(reports.map((r) => r!.id))).toEqual(new Set([1]));
    await ck.checkpoint([src], 'shutdown');
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/^ringql: checkpoint 1 \(log size\): 2 parts, 0\.0 MB written, \d+ files removed, \d+ ms$/);
    expect(lines[1]).toMatch(/^ringql: checkpoint 2 \(shutdown\): 1 parts, /);
    // A failure too is logged once, and every waiting call hears it.
    const broken: Checkpointable = { name: 'edge', checkpointParts: () => [{ key: 'head', immutable: false, events: 0, chunks: () => { throw new Error('disk on fire'); } }] };
    const failing = [ck.checkpoint([broken], 'log size'), ck.checkpoint([broken], 'eviction')];
    for (const f of failing) await expect(f).rejects.toThrow('disk on fire');
    expect(lines.slice(2)).toEqual(['ringql: checkpoint failed (log size); the log keeps everything: disk on fire']);
    await wal.close();
  });

  it('recovery removes log files a crash left below the checkpoint instead of replaying them', async () => {
    const root = tmp();
    const walDir = join(root, 'wal');
    const wal = Wal.open({ dir: walDir, fsync: 'interval', fsyncMs: 10 }, []);
    wal.appendSync(RECORD_BATCH, Buffer.from('1'), 0);
    const from = wal.rollForCheckpoint();
    wal.appendSync(RECORD_BATCH, Buffer.from('2'), 0);
    await wal.close();
    expect(listWalFiles(walDir).length).toBe(2);
    expect(replay(walDir, from)).toEqual([2]);
    expect(listWalFiles(walDir).map((f) => f.seq)).toEqual([from]);
  });

  it('a damaged part stops loading, or is moved aside with its event count when asked', async () => {
    const root = tmp();
    const ckDir = join(root, 'checkpoint');
    const wal = Wal.open({ dir: join(root, 'wal'), fsync: 'interval', fsyncMs: 10 }, []);
    const src = new TestSource('edge');
    src.sealed.push({ key: 's1', data: 'x'.repeat(200) });
    await new Checkpointer(ckDir, wal).checkpoint([src]);
    await wal.close();
    const path = join(ckDir, 'edge--s1.part');
    const b = readFileSync(path);
    b[b.length - 60] ^= 1;
    writeFileSync(path, b);
    expect(() => loadCheckpoint(ckDir, { discardCorrupt: false, log: () => {} })).toThrow(CorruptStateError);
    const lines: string[] = [];
    const loaded = loadCheckpoint(ckDir, { discardCorrupt: true, log: (l) => lines.push(l) })!;
    expect(loaded.sources.get('edge')!.length).toBe(1);
    expect(loaded.setAside).toHaveLength(1);
    expect(loaded.setAside[0]!.events).toBe(1);
    expect(existsSync(path)).toBe(false);
    expect(lines.join('\n')).toMatch(/1 events of edge are lost/);
  });

  it('a damaged manifest stops loading with its path', async () => {
    const root = tmp();
    const ckDir = join(root, 'checkpoint');
    const wal = Wal.open({ dir: join(root, 'wal'), fsync: 'interval', fsyncMs: 10 }, []);
    await new Checkpointer(ckDir, wal).checkpoint([new TestSource('edge')]);
    await wal.close();
    const m = readFileSync(join(ckDir, 'MANIFEST'));
    m[m.length - 3] ^= 1;
    writeFileSync(join(ckDir, 'MANIFEST'), m);
    expect(() => readManifest(ckDir)).toThrow(/MANIFEST is damaged at byte 0 \(checksum mismatch\)/);
  });
});
