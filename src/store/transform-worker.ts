// The transform thread (issue 16, item 2): runs the ingest addon's byte-level transform of request bodies
// and the zstd compression of sealed row blocks off the main thread; results come back transferred.

import { parentPort } from 'node:worker_threads';
import { crc32 } from '../core/crc32.ts';
import { Compressor } from 'zstd-napi';
import { runTransform, type TransformRequest } from './byte-batch.ts';
import type { NativeBatch } from './native-ingest.ts';
import { transferableBatch } from './transfer-batch.ts';
import { ThreadRowBuffers } from './thread-row-buffers.ts';
import type { BlockTuning } from './block-codec.ts';

/**
 * A job posted to the thread: one body to transform, or sealed blocks' raw bytes to compress. With
 * `crcSeed`, the answer brings the body's CRC-32 continued from that seed (the write-ahead log's checksum).
 */
export type TransformJob = { id: number; req: TransformRequest; lent?: true; crcSeed?: number; freedRows?: Uint8Array[] } | { blocks: BlockJob[] };

/** One block of a batch of blocks to compress (posted together: a message costs ~15 µs of CPU on each side). */
export interface BlockJob { id: number; block: CompressJob }

/** A block to compress with a codec's settings; `dict` comes with a codec's first block (null: plain). */
export interface CompressJob {
  raw: Uint8Array;
  codec: number;
  level: number;
  /** zstd parameters beside the level (block-codec.ts BlockTuning; null: none). */
  tuning: BlockTuning | null;
  dict?: Uint8Array | null;
}

/**
 * The thread's answer: the transform, or the addon's reason for declining, or a batch of compressed blocks, or
 * the error thrown; a lent body (the job's `lent`) goes back transferred with whichever it is.
 */
export type TransformAnswer =
  | { id: number; batch: NativeBatch; body?: Uint8Array; crc?: number }
  | { id: number; declined: string; body?: Uint8Array; crc?: number }
  | { id: number; error: string; body?: Uint8Array }
  | { answers: BlockAnswer[] };

/** A block of a batch compressed, or the error it threw. */
export type BlockAnswer = { id: number; comp: Uint8Array; carrier?: Uint8Array } | { id: number; error: string; carrier?: Uint8Array };

/** Compressors by the main thread's codec number, made from the settings its first block brings. */
const compressors = new Map<number, Compressor>();

/** The frame in a buffer of exactly its size, to transfer. */
function compressBlock(job: CompressJob): Uint8Array {
  let c = compressors.get(job.codec);
  if (!c) {
    c = new Compressor();
    c.setParameters({ compressionLevel: job.level, ...job.tuning });
    if (job.dict) c.loadDictionary(Buffer.from(job.dict.buffer, job.dict.byteOffset, job.dict.byteLength));
    compressors.set(job.codec, c);
  }
  const z = c.compress(job.raw);
  const out = new Uint8Array(z.length);
  out.set(z);
  return out;
}

/** A batch of blocks, answered in one message with every frame transferred. */
function answerBlocks(jobs: BlockJob[]): void {
  const answers: BlockAnswer[] = [];
  const transfer: ArrayBuffer[] = [];
  for (const { id, block } of jobs) {
    // The block's bytes came in a carrier buffer of the main thread's: it goes back with the answer, to carry others.
    const carrier = new Uint8Array(block.raw.buffer);
    transfer.push(carrier.buffer as ArrayBuffer);
    try {
      const comp = compressBlock(block);
      answers.push({ id, comp, carrier });
      transfer.push(comp.buffer as ArrayBuffer);
    } catch (e) {
      answers.push({ id, error: e instanceof Error ? e.message : String(e), carrier });
    }
  }
  parentPort!.postMessage({ answers } satisfies TransformAnswer, transfer);
}

/** Row buffers the main thread gave back once the rows written into them were sealed (row-pool.ts). */
const rowSpares = new ThreadRowBuffers();

function answer(job: TransformJob): void {
  if ('blocks' in job) {
    answerBlocks(job.blocks);
    return;
  }
  const { req } = job;
  if (job.freedRows) rowSpares.given(job.freedRows);
  // A lent body goes back with the answer, whatever it is (the main thread logs it or parses it).
  const back = job.lent ? { body: req.body as Uint8Array } : {};
  // Read before the body is transferred back; the main thread's log writes these very bytes.
  const sum = job.crcSeed === undefined ? {} : { crc: crc32(req.body, job.crcSeed) };
  const backList = job.lent ? [req.body.buffer as ArrayBuffer] : [];
  let msg: TransformAnswer;
  let transfer: ArrayBuffer[] = backList;
  try {
    // Posted as Uint8Arrays (a Buffer arrives as one): the addon takes Buffers.
    // copyRows: the rows come in a transferable Buffer of their own, written through this thread's kept row buffer.
    // A big body's rows go straight into a row buffer (transferred as it is); others via the kept buffer (copyRows).
    const into = rowSpares.take(req.body.byteLength);
    const b = runTransform({ ...req, body: Buffer.from(req.body.buffer, req.body.byteOffset, req.body.byteLength), idSeed: Buffer.from(req.idSeed.buffer, req.idSeed.byteOffset, req.idSeed.byteLength), copyRows: true, ...(into ? { rowsInto: into } : {}) });
    const pooled = into !== null && typeof b !== 'string' && b.rows.buffer === into.buffer;
    if (into !== null && !pooled) rowSpares.given([into]); // not used (declined, or the rows outgrew it)
    if (typeof b === 'string') msg = { id: job.id, declined: b, ...back, ...sum };
    else {
      if (pooled) b.pooled = true;
      const t = transferableBatch(b, true);
      msg = { id: job.id, batch: t.batch, ...back, ...sum };
      transfer = [...t.transfer, ...backList];
    }
  } catch (e) {
    msg = { id: job.id, error: e instanceof Error ? e.message : String(e), ...back };
  }
  try {
    parentPort!.postMessage(msg, transfer);
  } catch (e) {
    // Nothing is detached when posting fails: the body still goes back with the error.
    parentPort!.postMessage({ id: job.id, error: e instanceof Error ? e.message : String(e), ...back }, backList);
  }
}

parentPort!.on('message', answer);
// Told once the addon loaded (importing byte-batch.ts loads it, or throws and the thread fails to start).
parentPort!.postMessage('ready');
