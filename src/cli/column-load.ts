// The column-only load of `ringql query` (for queries that read only timestamp and project, column-only.ts):
// workers read and transform chunks of the file in parallel, keeping no row bytes; the bodies are stored
// here in file order with the same rules, counts and errors as the full load (ndjson-load.ts).

import { availableParallelism } from 'node:os';
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import type { SourceStore } from '../store/source-store.ts';
import { lineCuts } from './line-cuts.ts';
import { holdingFreedHeap } from '../store/allocator-trim.ts';
import { startColumnWorkers, takeSpeculated, type ColumnWorkers } from './column-workers.ts';
import type { ColumnBody, ColumnJob } from './column-chunk.ts';
import { LoadError, LoadProgress, located, parseLines, type LoadIo, type Loaded } from './ndjson-load.ts';

/** Bytes per chunk handed to a worker: big reads, yet enough chunks to keep both workers busy to the end. */
export const CHUNK_BYTES = 16 * 1024 * 1024;
/** Chunks handed out beyond the one being stored (bounds the memory of results waiting their turn). */
const AHEAD = 4;

/** How the loaded rows reach the store: the transformed bodies directly, declined ones through the reference path. */
export interface ColumnTarget {
  source: SourceStore;
  /** The fill-in time of events without a timestamp and the retention reference (--now). */
  nowUs: number;
  /** The reference path (EngineService.ingestVolatile) for a body the addon declined. */
  ingestEvents(events: unknown[]): Loaded;
  /** Throws as the full load does when a body holds more events than one batch may. */
  checkCount(n: number): void;
}

/** Worker threads to use: both cores of a 2-core machine, at most 4. */
export function columnWorkerCount(): number {
  return Math.max(1, Math.min(4, availableParallelism()));
}

function readBody(file: string, start: number, end: number): Buffer {
  const fd = openSync(file, 'r');
  try {
    const buf = Buffer.allocUnsafe(end - start);
    for (let at = 0; at < buf.length;) {
      const got = readSync(fd, buf, at, buf.length - at, start + at);
      if (got === 0) throw new LoadError(`Cannot read ${file}: it ended at byte ${start + at}`);
      at += got;
    }
    return buf;
  } finally {
    closeSync(fd);
  }
}

/** Stores one body: its transform, or (declined, or past the field bound) its events through the reference path. */
function storeBody(file: string, b: ColumnBody, firstLine: number, t: ColumnTarget): Loaded {
  let body: Buffer | null = null;
  try {
    if (typeof b.batch !== 'string') {
      const r = t.source.ingestTransformed(b.batch, t.nowUs, { checkCount: t.checkCount });
      if (typeof r !== 'string') return r;
    }
    body = readBody(file, b.start, b.end);
    return t.ingestEvents(parseLines(file, body, firstLine));
  } catch (err) {
    throw located(err, file, body ?? readBody(file, b.start, b.end), firstLine);
  }
}

/** What each chunk's transform needs besides its bytes: the source's project path and limits, and the fill-in time. */
export interface ChunkSettings {
  projectPath: readonly string[];
  maxEventDepth: number;
  maxStringBytes: number;
  fillUs: number;
}

/** The job of chunk `k` of a file cut at `cuts`. */
export function chunkJob(k: number, file: string, cuts: readonly number[], s: ChunkSettings): ColumnJob {
  return { id: k, file, start: cuts[k]!, end: cuts[k + 1]!, projectPath: s.projectPath, maxEventDepth: s.maxEventDepth, maxStringBytes: s.maxStringBytes, fillUs: s.fillUs };
}

/** Chunks handed out before the first one is stored, with `workers` workers. */
export function firstChunks(workers: number): number {
  return 1 + AHEAD * workers;
}

/** Chunk boundaries of `file` (every chunk begins a line); a LoadError when it cannot be read. */
export function sizeAndCuts(file: string, chunkBytes: number): number[] {
  let fd: number;
  try { fd = openSync(file, 'r'); } catch (err) { throw new LoadError(`Cannot read ${file}: ${(err as Error).message}`); }
  try {
    return lineCuts(fd, fstatSync(fd).size, chunkBytes);
  } finally {
    closeSync(fd);
  }
}

/** What a column load stored, and the row bytes the full load would have kept for those rows (an upper bound of them). */
export interface ColumnLoaded extends Loaded { rowBytes: number }

export function loadColumns(file: string, t: ColumnTarget, io: LoadIo, workers = columnWorkerCount(), chunkBytes = CHUNK_BYTES): Promise<ColumnLoaded> {
  return holdingFreedHeap(() => loadChunks(file, t, io, workers, chunkBytes));
}

async function loadChunks(file: string, t: ColumnTarget, io: LoadIo, workers: number, chunkBytes: number): Promise<ColumnLoaded> {
  const cuts = sizeAndCuts(file, chunkBytes);
  const total: ColumnLoaded = { stored: 0, dropped: 0, rowBytes: 0 };
  if (cuts.length < 2) return total;
  const pool: ColumnWorkers = await startColumnWorkers(Math.min(workers, cuts.length - 1));
  const results: Promise<ColumnBody[]>[] = [];
  // The source's own transform settings (project path, limits), as its full load would use them.
  const req = t.source.transformRequest(Buffer.alloc(0), true, t.nowUs, Buffer.alloc(16));
  const settings: ChunkSettings = { projectPath: req.projectPath, maxEventDepth: req.maxEventDepth, maxStringBytes: req.maxStringBytes, fillUs: req.fillUs };
  const dispatch = (upTo: number): void => {
    for (let k = results.length; k < Math.min(upTo, cuts.length - 1); k++) {
      const job = chunkJob(k, file, cuts, settings);
      // The bin may have posted this very chunk already, while the query was still being set up.
      const p = takeSpeculated(k, job) ?? pool.run(k, job);
      p.catch(() => {}); // awaited in order below; this only keeps a later chunk's failure from being "unhandled" meanwhile
      results.push(p);
    }
  };
  let line = 1;
  const progress = new LoadProgress(file, io);
  try {
    for (let k = 0; k < cuts.length - 1; k++) {
      dispatch(k + firstChunks(pool.size));
      for (const b of await results[k]!) {
        const r = storeBody(file, b, line, t);
        // A declined body's rows are stored with their bytes: at most twice its own size plus the generated parts.
        total.rowBytes += typeof b.batch === 'string' ? 2 * (b.end - b.start) + 160 * b.lines : b.batch.noRowsBytes ?? 0;
        line += b.lines;
        total.stored += r.stored;
        total.dropped += r.dropped;
      }
      progress.update(total);
    }
  } finally {
    await pool.close();
  }
  progress.end();
  return total;
}
