// The transform thread (issue 16, item 2): runs the ingest addon's byte-level transform of request bodies
// off the main thread and posts the batch's columns and row bytes back, their buffers transferred.

import { parentPort } from 'node:worker_threads';
import { runTransform, type TransformRequest } from './byte-batch.ts';
import type { NativeBatch } from './native-ingest.ts';

/** A job posted to the thread: one body to transform. */
export interface TransformJob {
  id: number;
  req: TransformRequest;
}

/** The thread's answer: the transform, or the addon's reason for declining, or the error it threw. */
export type TransformAnswer = { id: number; batch: NativeBatch } | { id: number; declined: string } | { id: number; error: string };

/** The buffers of `b`, each once (two views may share one), to hand over without a copy. */
function transferables(b: NativeBatch): ArrayBuffer[] {
  const set = new Set<ArrayBuffer>();
  for (const v of [b.rows, b.meta, b.strs, b.strEnds, b.descs, b.descEnds]) if (v.byteLength > 0) set.add(v.buffer as ArrayBuffer);
  return [...set];
}

function answer(job: TransformJob): void {
  let msg: TransformAnswer;
  try {
    const { req } = job;
    // Posted as Uint8Arrays (a Buffer arrives as one): the addon takes Buffers.
    const b = runTransform({ ...req, body: Buffer.from(req.body.buffer, req.body.byteOffset, req.body.byteLength), idSeed: Buffer.from(req.idSeed.buffer, req.idSeed.byteOffset, req.idSeed.byteLength) });
    if (typeof b === 'string') msg = { id: job.id, declined: b };
    else {
      parentPort!.postMessage({ id: job.id, batch: b } satisfies TransformAnswer, transferables(b));
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
