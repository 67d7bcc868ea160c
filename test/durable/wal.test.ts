// The write-ahead log over real files: records come back whole and in order, concurrent batches share
// fsyncs, a torn tail is cut with a warning, damage elsewhere stops recovery naming file and offset (or
// is set aside when asked), and a failing disk (/dev/full) rejects with storage_unavailable, leaving nothing.

import { appendFileSync, existsSync, mkdtempSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Wal, listWalFiles, walFileName } from '../../src/durable/wal.ts';
import { CorruptWalError, recoverWal } from '../../src/durable/wal-recovery.ts';
import { RECORD_BATCH } from '../../src/durable/record-frame.ts';

const dir = (): string => join(mkdtempSync(join(tmpdir(), 'ringql-wal-')), 'wal');
const payload = (i: number): Buffer => Buffer.from(JSON.stringify({ i, text: 'x'.repeat(i % 50) }));

function replay(d: string, discardCorrupt = false): { got: number[]; lines: string[]; report: ReturnType<typeof recoverWal> } {
  const got: number[] = [];
  const lines: string[] = [];
  const report = recoverWal({ dir: d, discardCorrupt, log: (l) => lines.push(l) }, (type, p) => {
    expect(type).toBe(RECORD_BATCH);
    const v = JSON.parse(p.toString()) as { i: number };
    got.push(v.i);
    return { events: 1, maxTs: v.i };
  });
  return { got, lines, report };
}

describe('write-ahead log', () => {
  for (const mode of ['always', 'interval'] as const) {
    it(`fsync=${mode}: every acknowledged record comes back in order, across segment files and restarts`, async () => {
      const d = dir();
      let wal = Wal.open({ dir: d, fsync: mode, fsyncMs: 10, segmentBytes: 500 }, []);
      for (let i = 0; i < 50; i++) { wal.appendSync(RECORD_BATCH, payload(i), i); await wal.durable(); }
      await Promise.all(Array.from({ length: 50 }, (_, i) => { wal.appendSync(RECORD_BATCH, payload(50 + i), 50 + i); return wal.durable(); }));
      await wal.close();
      const first = replay(d);
      expect(first.got).toEqual(Array.from({ length: 100 }, (_, i) => i));
      expect(listWalFiles(d).length).toBeGreaterThan(2);
      // A second run appends to a new file after the old ones.
      wal = Wal.open({ dir: d, fsync: mode, fsyncMs: 10 }, first.report.files);
      wal.appendSync(RECORD_BATCH, payload(100), 100);
      await wal.close();
      expect(replay(d).got).toEqual(Array.from({ length: 101 }, (_, i) => i));
    });
  }

  it('concurrent batches share fsyncs (group commit)', async () => {
    const d = dir();
    const wal = Wal.open({ dir: d, fsync: 'always', fsyncMs: 100 }, []);
    await Promise.all(Array.from({ length: 200 }, (_, i) => { wal.appendSync(RECORD_BATCH, payload(i), i); return wal.durable(); }));
    expect(wal.stats().fsyncs).toBeLessThan(200);
    expect(wal.stats().fsyncs).toBeGreaterThan(0);
    await wal.close();
    expect(replay(d).got.length).toBe(200);
  });

  it('a torn last record (a crash mid-write) is cut off with a warning; what came before is kept', async () => {
    const d = dir();
    const wal = Wal.open({ dir: d, fsync: 'always', fsyncMs: 100 }, []);
    for (let i = 0; i < 5; i++) wal.appendSync(RECORD_BATCH, payload(i), i);
    await wal.close();
    const f = join(d, walFileName(1));
    const whole = statSync(f).size;
    // Half of a sixth record: header and a few payload bytes.
    const sixth = readFileSync(f).subarray(0, 20);
    appendFileSync(f, sixth);
    const r = replay(d);
    expect(r.got).toEqual([0, 1, 2, 3, 4]);
    expect(r.report.tornTails).toBe(1);
    expect(r.lines.join('\n')).toMatch(/torn last record at byte \d+/);
    expect(statSync(f).size).toBe(whole);
    // Zero-filled blocks after a machine crash count as a torn tail too.
    appendFileSync(f, Buffer.alloc(4096));
    expect(replay(d).got).toEqual([0, 1, 2, 3, 4]);
  });

  it('damage before the end stops recovery with the file and offset; --discard-corrupt keeps what precedes it and sets the file aside', async () => {
    const d = dir();
    const wal = Wal.open({ dir: d, fsync: 'always', fsyncMs: 100 }, []);
    for (let i = 0; i < 6; i++) wal.appendSync(RECORD_BATCH, payload(i), i);
    await wal.close();
    const f = join(d, walFileName(1));
    const buf = readFileSync(f);
    // Flip one byte inside the payload of the fourth record.
    let at = 0;
    for (let i = 0; i < 3; i++) at += 12 + buf.readUInt32LE(at + 4);
    buf[at + 14] = buf[at + 14]! ^ 0xff;
    writeFileSync(f, buf);
    expect(() => replay(d)).toThrow(CorruptWalError);
    try { replay(d); } catch (e) {
      expect((e as CorruptWalError).file).toBe(f);
      expect((e as CorruptWalError).offset).toBe(at);
      expect((e as Error).message).toMatch(/--discard-corrupt/);
    }
    const r = replay(d, true);
    expect(r.got).toEqual([0, 1, 2]);
    expect(r.report.setAside.length).toBe(1);
    expect(existsSync(r.report.setAside[0]!)).toBe(true);
    expect(readFileSync(r.report.setAside[0]!).length).toBe(buf.length);
    // The damage is gone from the log itself: the next recovery is clean.
    expect(replay(d).got).toEqual([0, 1, 2]);
  });

  it('a failing disk rejects the batch with 503 storage_unavailable, keeps nothing of it, and later writes succeed again', async () => {
    const d = dir();
    const wal = Wal.open({ dir: d, fsync: 'always', fsyncMs: 100 }, []);
    wal.appendSync(RECORD_BATCH, payload(0), 0);
    await wal.close();
    const before = replay(d).report.files;
    // The next segment file is /dev/full: every write to it fails with ENOSPC.
    symlinkSync('/dev/full', join(d, walFileName(2)));
    const failing = Wal.open({ dir: d, fsync: 'always', fsyncMs: 100 }, before);
    expect(() => failing.appendSync(RECORD_BATCH, payload(1), 1)).toThrow(expect.objectContaining({ code: 'storage_unavailable' }));
    expect(failing.stats().write_errors).toBe(1);
    // Space "returns": the next write goes to a new file and succeeds.
    failing.appendSync(RECORD_BATCH, payload(2), 2);
    await failing.close();
    expect(replay(d).got).toEqual([0, 2]);
  });

  it('the retention checkpoint deletes closed files whose every event is older than the cutoff', async () => {
    const d = dir();
    const wal = Wal.open({ dir: d, fsync: 'interval', fsyncMs: 10, segmentBytes: 500 }, []);
    for (let i = 0; i < 60; i++) wal.appendSync(RECORD_BATCH, payload(i), i);
    const files = listWalFiles(d).length;
    const removed = wal.dropOlderThan(30);
    expect(removed).toBeGreaterThan(0);
    expect(listWalFiles(d).length).toBe(files - removed);
    await wal.close();
    const got = replay(d).got;
    expect(got.at(-1)).toBe(59);
    expect(Math.min(...got)).toBeLessThanOrEqual(30);
    expect(got.every((x, i) => i === 0 || x === got[i - 1]! + 1)).toBe(true);
  });
});
