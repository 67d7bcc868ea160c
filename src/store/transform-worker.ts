// The transform thread (issue 16, item 2): runs the ingest addon's byte-level transform of request bodies
// and the zstd compression of sealed row blocks off the main thread; results come back transferred.

import { parentPort } from 'node:worker_threads';
import { Compressor } from 'zstd-napi';
import { runTransform, type TransformRequest } from './byte-batch.ts';
import type { NativeBatch } from './native-ingest.ts';
import { transferableBatch } from './transfer-batch.ts';
import type { BlockTuning } from './block-codec.ts';

/** A job posted to the thread: one body to transform, or one sealed block's raw bytes to compress. */
export type TransformJob = { id: number; req: TransformRequest } | { id: number; block: CompressJob };

/** A block to compress with a codec's settings; `dict` comes with a codec's first block (null: plain). */
export interface CompressJob {
  raw: Uint8Array;
  codec: number;
  level: number;
  /** zstd parameters beside the level (block-codec.ts BlockTuning; null: none). */
  tuning: BlockTuning | null;
  dict?: Uint8Array | null;
}

/** The thread's answer: the transform, or the addon's reason for declining, or the compressed block, or the error thrown. */
export type TransformAnswer =
  | { id: number; batch: NativeBatch }
  | { id: number; declined: string }
  | { id: number; comp: Uint8Array }
  | { id: number; error: string };

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

function answer(job: TransformJob): void {
  let msg: TransformAnswer;
  try {
    if ('block' in job) {
      const comp = compressBlock(job.block);
      parentPort!.postMessage({ id: job.id, comp } satisfies TransformAnswer, [comp.buffer as ArrayBuffer]);
      return;
    }
    const { req } = job;
    // Posted as Uint8Arrays (a Buffer arrives as one): the addon takes Buffers.
    const b = runTransform({ ...req, body: Buffer.from(req.body.buffer, req.body.byteOffset, req.body.byteLength), idSeed: Buffer.from(req.idSeed.buffer, req.idSeed.byteOffset, req.idSeed.byteLength) });
    if (typeof b === 'string') msg = { id: job.id, declined: b };
    else {
      const { batch, transfer } = transferableBatch(b);
      parentPort!.postMessage({ id: job.id, batch } satisfies TransformAnswer, transfer);
      return;
    }
  } catch (e) {
    msg = { id: job.id, error: e instanceof Error ? e.message : String(e) };
  }
  parentPort!.postMessage(msg);
}

parentPort!.on('message', answer);
// Told once the addon loaded (importing byte-batch.ts loads it, or throws and the thread fails to start).
parentPort!.postMessage('ready');
