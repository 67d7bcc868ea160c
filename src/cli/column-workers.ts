// The main thread's side of the column-only load workers (column-worker.ts): starts them, hands each a
// chunk of the file and resolves with its transformed bodies; a worker that fails or exits fails the load.

import { Worker } from 'node:worker_threads';
import type { ColumnAnswer, ColumnBody, ColumnJob } from './column-worker.ts';

type Pending = { resolve: (b: ColumnBody[]) => void; reject: (e: Error) => void };

/** Compiled JavaScript runs the worker as it is; under tsx a boot file registers tsx in the thread first. */
function entry(): URL {
  return new URL(import.meta.url.endsWith('.js') ? './column-worker.js' : './column-worker-boot.mjs', import.meta.url);
}

/** A byte view posted across threads arrives as a plain Uint8Array: the store reads Buffers. */
function asBuffer(v: Uint8Array): Buffer {
  return Buffer.from(v.buffer, v.byteOffset, v.byteLength);
}

class ColumnWorker {
  private readonly pending = new Map<number, Pending>();
  private failed: Error | null = null;
  private closing = false;
  constructor(private readonly worker: Worker) {
    worker.on('message', (m: ColumnAnswer) => this.settle(m));
    worker.on('error', (e) => this.fail(new Error(`a column load worker failed: ${e.message}`)));
    worker.on('exit', (code) => this.fail(new Error(`a column load worker exited (code ${code})`)));
  }

  run(job: ColumnJob): Promise<ColumnBody[]> {
    if (this.failed) return Promise.reject(this.failed);
    return new Promise((resolve, reject) => {
      this.pending.set(job.id, { resolve, reject });
      this.worker.postMessage(job);
    });
  }

  /** Stops the thread; its exit is then no failure. */
  close(): Promise<number> {
    this.closing = true;
    return this.worker.terminate();
  }

  private settle(m: ColumnAnswer): void {
    const p = this.pending.get(m.id);
    if (!p) return;
    this.pending.delete(m.id);
    if ('error' in m) { p.reject(new Error(`the column load failed: ${m.error}`)); return; }
    p.resolve(m.bodies.map((b) => typeof b.batch === 'string' ? b
      : { ...b, batch: { ...b.batch, rows: Buffer.alloc(0), strs: asBuffer(b.batch.strs), descs: asBuffer(b.batch.descs) } }));
  }

  private fail(e: Error): void {
    if (this.closing) return;
    this.failed ??= e;
    for (const p of this.pending.values()) p.reject(e);
    this.pending.clear();
  }
}

/** Workers started ahead of the load (prestartColumnWorkers), each ready or failed; taken by the next start. */
let prestarted: Promise<Worker>[] = [];

/**
 * Starts `count` workers now, for a load that may come (the bin, before its heavy imports: each thread's
 * own start, ~35 ms of CPU, then overlaps the main thread's). Until taken they hold no process open; a
 * failure is reported by the start that takes the worker, as if it had started it.
 */
export function prestartColumnWorkers(count: number): void {
  prestarted.push(...Array.from({ length: count }, () => {
    const p = startOne();
    p.then((w) => { w.unref(); w.on('error', idleError); }, () => {});
    return p;
  }));
}

/** A prestarted worker that fails while idle: the start that takes it then sees its exit. */
function idleError(): void {}

/** How many prestarted workers wait to be taken (tests). */
export function prestartedCount(): number {
  return prestarted.length;
}

/** Stops the prestarted workers no load took (a query the full path ran, say). */
export async function discardPrestartedWorkers(): Promise<void> {
  const left = prestarted;
  prestarted = [];
  await Promise.allSettled(left.map(async (p) => (await p).terminate()));
}

/** The prestarted workers (at most `count`; the rest stopped) and new ones up to `count`. */
function starting(count: number): Promise<Worker>[] {
  const taken = prestarted.splice(0, count).map(async (p) => {
    const w = await p;
    w.off('error', idleError);
    if (w.threadId < 0) throw new Error('ringql: a column load worker exited before it was used');
    w.ref();
    return w;
  });
  void discardPrestartedWorkers();
  return [...taken, ...Array.from({ length: count - taken.length }, () => startOne())];
}

/** `count` workers, each started and ready (its addon loaded); rejects naming the cause when one is not. */
export async function startColumnWorkers(count: number): Promise<ColumnWorkers> {
  const started = await Promise.allSettled(starting(count));
  const ok = started.flatMap((s) => s.status === 'fulfilled' ? [s.value] : []);
  const bad = started.find((s): s is PromiseRejectedResult => s.status === 'rejected');
  if (bad) {
    await Promise.all(ok.map((w) => w.terminate()));
    throw bad.reason instanceof Error ? bad.reason : new Error(String(bad.reason));
  }
  return new ColumnWorkers(ok.map((w) => new ColumnWorker(w)));
}

function startOne(): Promise<Worker> {
  const worker = new Worker(entry());
  return new Promise<Worker>((resolve, reject) => {
    const onError = (e: Error): void => reject(new Error(`ringql: a column load worker did not start: ${e.message}`));
    const onExit = (code: number): void => reject(new Error(`ringql: a column load worker exited (code ${code}) before it was ready`));
    worker.once('error', onError);
    worker.once('exit', onExit);
    worker.once('message', (m: unknown) => {
      // Only these: a Worker's own listeners (its message port's) must stay.
      worker.off('error', onError);
      worker.off('exit', onExit);
      if (m === 'ready') resolve(worker);
      else reject(new Error(`ringql: a column load worker answered ${JSON.stringify(m)} instead of ready`));
    });
  });
}

export class ColumnWorkers {
  private closing = false;
  constructor(private readonly all: ColumnWorker[]) {}

  get size(): number { return this.all.length; }

  /** Chunk `k`'s job on worker k mod size (chunks go round the workers in file order). */
  run(k: number, job: ColumnJob): Promise<ColumnBody[]> {
    return this.all[k % this.all.length]!.run(job);
  }

  async close(): Promise<void> {
    if (this.closing) return;
    this.closing = true;
    await Promise.all(this.all.map((w) => w.close()));
  }
}
