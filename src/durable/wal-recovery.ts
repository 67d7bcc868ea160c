// Recovery at start (SPEC §12): reads every WAL segment file in order and hands each whole record to
// the caller. A torn tail (a write a crash cut short: never acknowledged) is cut off with a warning; any
// other damage stops the start naming the file and offset, unless the operator asked to set it aside.

import { copyFileSync, readFileSync, truncateSync, unlinkSync } from 'node:fs';
import { listWalFiles, type WalFile } from './wal.ts';
import { readRecord } from './record-frame.ts';

export interface RecoveryOptions {
  dir: string;
  /** Set the damaged part of a file aside (copied to `<file>.corrupt-<time>`) instead of stopping. */
  discardCorrupt: boolean;
  log: (line: string) => void;
  /**
   * The first file not covered by the checkpoint (its manifest's walFrom): older files are left over
   * from a checkpoint whose cleanup a crash cut short; they are deleted, never replayed twice.
   */
  fromSeq?: number;
}

export interface RecoveryReport {
  files: WalFile[];
  records: number;
  events: number;
  bytes: number;
  ms: number;
  tornTails: number;
  setAside: string[];
}

/** Thrown when a WAL file is damaged other than at its tail; the message says what to do. */
export class CorruptWalError extends Error {
  constructor(readonly file: string, readonly offset: number, why: string) {
    super(`The write-ahead log file ${file} is damaged at byte ${offset} (${why}). Nothing was loaded. ` +
      'Start with --discard-corrupt (or run `ringql repair`) to keep the records before that offset and set the rest of the file aside.');
    this.name = 'CorruptWalError';
  }
}

/**
 * Replays the log: `apply(type, payload)` is called for every whole record in order and returns how many
 * events it held. Returns what was read, each file with the newest event time `maxTsOf` found in it.
 */
export function recoverWal(opts: RecoveryOptions, apply: (type: number, payload: Buffer) => { events: number; maxTs: number }): RecoveryReport {
  const t0 = performance.now();
  const files = dropCovered(listWalFiles(opts.dir), opts.fromSeq ?? 0, opts.log);
  const report: RecoveryReport = { files, records: 0, events: 0, bytes: 0, ms: 0, tornTails: 0, setAside: [] };
  for (const f of files) {
    const buf = readFileSync(f.path);
    f.maxTs = -Infinity;
    let at = 0;
    for (;;) {
      const r = readRecord(buf, at);
      if (r.kind === 'end') break;
      if (r.kind === 'record') {
        const got = apply(r.type, r.payload);
        report.records++;
        report.events += got.events;
        if (got.maxTs > f.maxTs) f.maxTs = got.maxTs;
        at = r.next;
        continue;
      }
      // A crash mid-write leaves a short record, or (after a machine crash) zero-filled blocks: a torn tail.
      const zeros = buf.subarray(at).every((b) => b === 0);
      if (r.kind === 'torn' || zeros) {
        opts.log(`ringql: WAL ${f.path}: cut a torn last record at byte ${at} (${buf.length - at} bytes of a write that was never acknowledged)`);
        truncateSync(f.path, at);
        report.tornTails++;
        break;
      }
      if (!opts.discardCorrupt) throw new CorruptWalError(f.path, at, r.why);
      const aside = `${f.path}.corrupt-${Date.now()}`;
      copyFileSync(f.path, aside);
      truncateSync(f.path, at);
      report.setAside.push(aside);
      opts.log(`ringql: WAL ${f.path}: damaged at byte ${at} (${r.why}); kept the ${report.records} records before it, set the whole file aside as ${aside} ` +
        `(${buf.length - at} bytes after the damage could not be read)`);
      break;
    }
    f.bytes = Math.min(buf.length, at);
    report.bytes += f.bytes;
  }
  report.ms = performance.now() - t0;
  return report;
}

function dropCovered(files: WalFile[], fromSeq: number, log: (line: string) => void): WalFile[] {
  const keep: WalFile[] = [];
  for (const f of files) {
    if (f.seq >= fromSeq) keep.push(f);
    else {
      unlinkSync(f.path);
      log(`ringql: WAL ${f.path}: removed (its records are in the checkpoint)`);
    }
  }
  return keep;
}
