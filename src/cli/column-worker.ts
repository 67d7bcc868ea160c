// A column-only load worker (`ringql query`, column-load.ts): transforms the chunks it is posted
// (column-chunk.ts) and posts back their bodies, the batches' memory transferred.

import { parentPort } from 'node:worker_threads';
import { transformChunk, type ColumnAnswer, type ColumnJob } from './column-chunk.ts';

parentPort!.on('message', (job: ColumnJob) => {
  const transfer: ArrayBuffer[] = [];
  let msg: ColumnAnswer;
  try {
    msg = { id: job.id, bodies: transformChunk(job, transfer) };
  } catch (e) {
    msg = { id: job.id, error: e instanceof Error ? e.message : String(e) };
  }
  parentPort!.postMessage(msg, [...new Set(transfer)]);
});
parentPort!.postMessage('ready');
