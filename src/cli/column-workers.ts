// The main thread's side of the column-only load workers (column-worker.ts): starts them, hands each a
// chunk of the file and resolves with its transformed bodies; a worker that fails or exits fails the load.

import { Worker } from 'node:worker_threads';
import type { ColumnAnswer, ColumnBody, ColumnJob } from './column-chunk.ts';

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
    // The thread's 'ready' is startOne's to read; answers are objects.
    worker.on('message', (m: ColumnAnswer | string) => { if (typeof m !== 'string') this.settle(m); });
    worker.on('error', (e) => this.fail(new Error(`a column load worker failed: ${e.message}`)));
    worker.on('exit', (code) => this.fail(new Error(`a column load worker exited (code ${code})`)));
  }

  /** Jobs posted and not answered yet. */
  get waiting(): number { return this.pending.size; }
  /** The first failure (an error, or an exit while not closing), if any. */
  get failure(): Error | null { return this.failed; }
  /** Whether the thread holds the process open (a prestarted worker does not until a load takes it). */
  ref(): void { this.worker.ref(); }
  unref(): void { this.worker.unref(); }

  /** Message ids of this worker's jobs: its own, since a speculated job and the load's may share a chunk's id. */
  private nextId = 0;

  run(job: ColumnJob): Promise<ColumnBody[]> {
    if (this.failed) return Promise.reject(this.failed);
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.worker.postMessage({ ...job, id } satisfies ColumnJob);
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

/**
 * A worker thread being started: its ColumnWorker at once — a job run now waits in the thread's port until the
 * thread listens, so it needs nothing of this thread's event loop — and whether the thread came up.
 */
interface Starting { worker: ColumnWorker; ready: Promise<ColumnWorker> }

/** Workers started ahead of the load (prestartColumnWorkers); taken by the next start. */
let prestarted: Starting[] = [];

/** A chunk posted to a prestarted worker before the load asked for it (speculateColumnJobs). */
interface Speculated { job: ColumnJob; result: Promise<ColumnBody[]> }
let speculated: (Speculated | undefined)[] = [];
/** Set when a start took every prestarted worker: only then are the speculated chunks on the load's own workers. */
let speculationTaken = false;
/** Speculated chunks a load took (tests). */
let hits = 0;

/**
 * Starts `count` workers now, for a load that may come (the bin, before its heavy imports: each thread's
 * own start, ~35 ms of CPU, then overlaps the main thread's). Until taken they hold no process open; a
 * failure is reported by the start that takes the worker, as if it had started it.
 */
export function prestartColumnWorkers(count: number): void {
  prestarted.push(...Array.from({ length: count }, () => {
    const s = startOne();
    s.worker.unref();
    s.ready.catch(() => {});
    return s;
  }));
}

/**
 * Posts `jobs` (chunk k's is jobs[k]) to the prestarted workers now, chunk k to worker k mod their number as a
 * load's pool would, so their transforms overlap the main thread's start. Posted at once, not once each thread
 * says it is ready: that message waits for this thread's event loop, which the start keeps busy until the load
 * (the jobs went out ~250 ms late and the workers idled meanwhile; bench/CLI.md round 14). A load takes each
 * result only when it asks for that very job on those workers (takeSpeculated); any other is dropped with them.
 */
export function speculateColumnJobs(jobs: readonly ColumnJob[]): void {
  const n = prestarted.length;
  if (n === 0) return;
  speculated = jobs.map((job, k) => {
    const result = prestarted[k % n]!.worker.run(job);
    result.catch(() => {}); // awaited by the load that takes it; else dropped
    return { job, result };
  });
  speculationTaken = false;
}

function sameJob(a: ColumnJob, b: ColumnJob): boolean {
  return a.id === b.id && a.file === b.file && a.start === b.start && a.end === b.end && a.fillUs === b.fillUs &&
    a.maxEventDepth === b.maxEventDepth && a.maxStringBytes === b.maxStringBytes &&
    a.projectPath.length === b.projectPath.length && a.projectPath.every((seg, i) => seg === b.projectPath[i]);
}

/** The speculated result of `job` (chunk k) when it was posted as exactly this job to the load's workers, else null. */
export function takeSpeculated(k: number, job: ColumnJob): Promise<ColumnBody[]> | null {
  const s = speculationTaken ? speculated[k] : undefined;
  if (s === undefined || !sameJob(s.job, job)) return null;
  speculated[k] = undefined;
  hits++;
  return s.result;
}

/** Chunks speculated by the last speculateColumnJobs, and how many loads took in all (tests). */
export function speculationStats(): { posted: number; taken: number } {
  return { posted: speculated.length, taken: hits };
}

/** How many prestarted workers wait to be taken (tests). */
export function prestartedCount(): number {
  return prestarted.length;
}

/** Stops the prestarted workers no load took (a query the full path ran, say), and forgets their speculated chunks. */
export async function discardPrestartedWorkers(): Promise<void> {
  const left = prestarted;
  prestarted = [];
  if (left.length > 0) speculated = [];
  await Promise.allSettled(left.map((s) => s.worker.close()));
}

/** The prestarted workers (at most `count`; the rest stopped) and new ones up to `count`. */
function starting(count: number): Promise<ColumnWorker>[] {
  speculationTaken = prestarted.length > 0 && count === prestarted.length;
  if (!speculationTaken) speculated = [];
  const taken = prestarted.splice(0, count).map(async (s) => {
    // Held before waiting: an unreferenced thread's messages (its 'ready', its answers) keep no event loop
    // alive, and one that has nothing else ends the process with the start's await unsettled (exit 13).
    s.worker.ref();
    const w = await s.ready;
    if (w.failure) throw new Error(`ringql: a column load worker stopped before it was used: ${w.failure.message}`);
    return w;
  });
  void discardPrestartedWorkers();
  return [...taken, ...Array.from({ length: count - taken.length }, () => startOne().ready)];
}

/** `count` workers, each started and ready (its addon loaded); rejects naming the cause when one is not. */
export async function startColumnWorkers(count: number): Promise<ColumnWorkers> {
  const started = await Promise.allSettled(starting(count));
  const ok = started.flatMap((s) => s.status === 'fulfilled' ? [s.value] : []);
  const bad = started.find((s): s is PromiseRejectedResult => s.status === 'rejected');
  if (bad) {
    await Promise.all(ok.map((w) => w.close()));
    throw bad.reason instanceof Error ? bad.reason : new Error(String(bad.reason));
  }
  return new ColumnWorkers(ok);
}

function startOne(): Starting {
  const worker = new Worker(entry());
  const cw = new ColumnWorker(worker);
  return { worker: cw, ready: readyOf(worker, cw) };
}

/** Resolves with `cw` once its thread says it is ready (its addon loaded); rejects naming why it is not. */
function readyOf(worker: Worker, cw: ColumnWorker): Promise<ColumnWorker> {
  return new Promise<ColumnWorker>((resolve, reject) => {
    const onError = (e: Error): void => reject(new Error(`ringql: a column load worker did not start: ${e.message}`));
    const onExit = (code: number): void => reject(new Error(`ringql: a column load worker exited (code ${code}) before it was ready`));
    worker.once('error', onError);
    worker.once('exit', onExit);
    worker.once('message', (m: unknown) => {
      // Only these: a Worker's own listeners (its message port's) must stay.
      worker.off('error', onError);
      worker.off('exit', onExit);
      if (m === 'ready') resolve(cw);
      else reject(new Error(`ringql: a column load worker answered ${JSON.stringify(m)} instead of ready`));
    });
  });
}

export class ColumnWorkers {
  private closing = false;
  constructor(private readonly all: ColumnWorker[]) {}

  get size(): number { return this.all.length; }

  /**
   * Chunk `k`'s job on the worker with the fewest jobs waiting (ties: worker k mod size). Round the workers in
   * file order, a worker slowed for a while (descheduled on a busy machine) kept its share and the other waited
   * for it at the end: once ~80 ms of a 1 GB query with 4 chunks queued on each (bench/CLI.md round 14; on a
   * quiet machine both end within ~25 ms either way, and 10 alternated pairs read the same wall).
   */
  run(k: number, job: ColumnJob): Promise<ColumnBody[]> {
    let best = k % this.all.length;
    for (let i = 0; i < this.all.length; i++) if (this.all[i]!.waiting < this.all[best]!.waiting) best = i;
    return this.all[best]!.run(job);
  }

  /** Jobs posted to each worker and not answered yet (tests). */
  waitingCounts(): number[] {
    return this.all.map((w) => w.waiting);
  }

  async close(): Promise<void> {
    if (this.closing) return;
    this.closing = true;
    await Promise.all(this.all.map((w) => w.close()));
  }
}
