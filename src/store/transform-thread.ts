// The main thread's side of the transform thread (transform-worker.ts): posts request bodies there and
// resolves, in order, with the batch's columns and row bytes; a thread that cannot start fails loudly.

import { Worker } from 'node:worker_threads';
import type { TransformRequest } from './byte-batch.ts';
import type { NativeBatch } from './native-ingest.ts';
import type { TransformAnswer, TransformJob } from './transform-worker.ts';

type Pending = { resolve: (b: NativeBatch | string) => void; reject: (e: Error) => void };

/** A byte view posted across threads arrives as a plain Uint8Array: the store reads Buffers. */
function asBuffer(v: Uint8Array): Buffer {
  return Buffer.from(v.buffer, v.byteOffset, v.byteLength);
}

export class TransformThread {
  private readonly pending = new Map<number, Pending>();
  private nextId = 0;
  private failed: Error | null = null;

  private constructor(private readonly worker: Worker) {
    worker.on('message', (m: TransformAnswer) => this.settle(m));
    worker.on('error', (e) => this.fail(new Error(`the ingest transform thread failed: ${e.message}`)));
    worker.on('exit', (code) => this.fail(new Error(`the ingest transform thread exited (code ${code})`)));
    // Never what keeps the process alive: open requests and the server do.
    worker.unref();
  }

  /** Starts the thread; rejects, naming the cause, when it or the addon in it does not load. */
  static start(): Promise<TransformThread> {
    // Compiled JavaScript runs the worker as it is; under tsx, loader hooks are per thread, so a boot file registers tsx first.
    const entry = import.meta.url.endsWith('.js') ? './transform-worker.js' : './transform-worker-boot.mjs';
    const worker = new Worker(new URL(entry, import.meta.url));
    return new Promise<TransformThread>((resolve, reject) => {
      const onError = (e: Error): void => reject(new Error(`ringql: the ingest transform thread did not start: ${e.message}`));
      const onExit = (code: number): void => reject(new Error(`ringql: the ingest transform thread exited (code ${code}) before it was ready`));
      worker.once('error', onError);
      worker.once('exit', onExit);
      worker.once('message', (m: unknown) => {
        worker.off('error', onError);
        worker.off('exit', onExit);
        if (m === 'ready') resolve(new TransformThread(worker));
        else reject(new Error(`ringql: the ingest transform thread answered ${JSON.stringify(m)} instead of ready`));
      });
    });
  }

  /** The addon's transform of `req` on the thread (the body is copied there), or its reason for declining. */
  transform(req: TransformRequest): Promise<NativeBatch | string> {
    if (this.failed) return Promise.reject(this.failed);
    const id = this.nextId++;
    return new Promise<NativeBatch | string>((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.worker.postMessage({ id, req } satisfies TransformJob);
    });
  }

  /** Stops the thread (requests still open are rejected). */
  close(): Promise<number> {
    return this.worker.terminate();
  }

  private settle(m: TransformAnswer): void {
    const p = this.pending.get(m.id);
    if (!p) return;
    this.pending.delete(m.id);
    if ('error' in m) p.reject(new Error(`the ingest transform failed: ${m.error}`));
    else if ('declined' in m) p.resolve(m.declined);
    else {
      const b = m.batch;
      p.resolve({ ...b, rows: asBuffer(b.rows), strs: asBuffer(b.strs), descs: asBuffer(b.descs) });
    }
  }

  private fail(e: Error): void {
    this.failed ??= e;
    for (const p of this.pending.values()) p.reject(e);
    this.pending.clear();
  }
}
