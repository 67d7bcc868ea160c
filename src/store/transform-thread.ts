// The main thread's side of the transform thread (transform-worker.ts): posts request bodies (and sealed
// blocks to compress) there and resolves, in order, with the results; a thread that cannot start fails loudly.

import { Worker } from 'node:worker_threads';
import type { TransformRequest } from './byte-batch.ts';
import type { NativeBatch } from './native-ingest.ts';
import type { BlockAnswer, BlockJob, CompressJob, TransformAnswer, TransformJob } from './transform-worker.ts';
import type { BlockCodec } from './block-codec.ts';
import { IdleDrop } from '../core/idle-drop.ts';
import { SpareBuffers, roundUp } from './spare-buffers.ts';

type Pending = { resolve: (b: NativeBatch | string | Buffer) => void; reject: (e: Error) => void; lent?: TransformRequest; crc?: BodyCrc };

/** A body's CRC-32 asked of the thread: continued from `seed` (the record bytes before the body); `value` once answered. */
export interface BodyCrc {
  seed: number;
  value: number | null;
}

/** Carrier buffers kept at most (block-compressor.ts keeps at most 16 MiB of raw blocks in flight), and their size unit. */
const MAX_CARRIER_BYTES = 16 * 1024 * 1024;
const CARRIER_ROUND = 16 * 1024;
/** Row buffers waiting to go back to the thread, at most (the thread keeps 16 MiB of spares). */
const MAX_BACK_BYTES = 16 * 1024 * 1024;

/** A byte view posted across threads arrives as a plain Uint8Array: the store reads Buffers. */
function asBuffer(v: Uint8Array): Buffer {
  return Buffer.from(v.buffer, v.byteOffset, v.byteLength);
}

/** A Buffer that is the whole of a plain ArrayBuffer (not a slice of Node's pool): transferring it takes nothing else. */
function ownsItsMemory(b: Buffer): boolean {
  return b.byteOffset === 0 && b.byteLength === b.buffer.byteLength && b.byteLength > 0 && b.buffer instanceof ArrayBuffer;
}

/** Compiled JavaScript runs the worker as it is; under tsx, loader hooks are per thread, so a boot file registers tsx first. */
function defaultEntry(): URL {
  return new URL(import.meta.url.endsWith('.js') ? './transform-worker.js' : './transform-worker-boot.mjs', import.meta.url);
}

export class TransformThread {
  private readonly pending = new Map<number, Pending>();
  private nextId = 0;
  private failed: Error | null = null;
  /** Numbers of the codecs whose settings the thread has (a codec's dictionary goes with its first block). */
  private readonly codecs = new WeakMap<BlockCodec, number>();
  private codecCount = 0;
  private closing = false;
  private posts = 0;
  /** Blocks asked for in this tick, posted together when it ends (see compress). */
  private blocks: BlockJob[] = [];
  /** Buffers a block's raw bytes are copied into to be transferred, back with the block's answer (see compress). */
  private readonly carriers = new SpareBuffers(MAX_CARRIER_BYTES);
  /** Row buffers free again (their rows sealed), posted back with the next body (see rowsHome). */
  private back: ArrayBuffer[] = [];
  private backBytes = 0;
  /** Row buffers posted back (tests). */
  returned = 0;
  /**
   * Where a pooled batch's rows buffer (NativeBatch.pooled) goes once the source's row pool frees it: back
   * to the thread with the next body, which writes rows into it again (at most MAX_BACK_BYTES wait).
   */
  readonly rowsHome = (buf: Buffer): void => {
    if (this.failed || this.closing || !ownsItsMemory(buf) || this.backBytes + buf.length > MAX_BACK_BYTES) return;
    this.back.push(buf.buffer as ArrayBuffer);
    this.backBytes += buf.length;
    this.backIdle.arm();
  };
  /** The buffers waiting to go back go when no body is posted for SPARE_IDLE_MS (the thread's spares go then too). */
  private readonly backIdle = new IdleDrop(() => { this.back = []; this.backBytes = 0; }, () => this.back.length > 0);

  /** Bytes of row buffers waiting to go back to the thread (tests). */
  get waitingBackBytes(): number {
    return this.backBytes;
  }

  private constructor(private readonly worker: Worker, private readonly onFail: (e: Error) => void) {
    worker.on('message', (m: TransformAnswer) => {
      if ('answers' in m) for (const a of m.answers) this.settle(a);
      else this.settle(m);
    });
    worker.on('error', (e) => this.fail(new Error(`the ingest transform thread failed: ${e.message}`)));
    worker.on('exit', (code) => this.fail(new Error(`the ingest transform thread exited (code ${code})`)));
    // Keeps the process alive only while it has work (see track).
    worker.unref();
  }

  /**
   * Starts the thread; rejects, naming the cause, when it or the addon in it does not load. `onFail` hears
   * once if it dies later: ingest bodies then answer 500 and blocks are compressed on the main thread.
   */
  static start(onFail: (e: Error) => void = () => {}, entry = defaultEntry()): Promise<TransformThread> {
    const worker = new Worker(entry);
    return new Promise<TransformThread>((resolve, reject) => {
      const onError = (e: Error): void => reject(new Error(`ringql: the ingest transform thread did not start: ${e.message}`));
      const onExit = (code: number): void => reject(new Error(`ringql: the ingest transform thread exited (code ${code}) before it was ready`));
      worker.once('error', onError);
      worker.once('exit', onExit);
      worker.once('message', (m: unknown) => {
        worker.off('error', onError);
        worker.off('exit', onExit);
        if (m === 'ready') resolve(new TransformThread(worker, onFail));
        else reject(new Error(`ringql: the ingest transform thread answered ${JSON.stringify(m)} instead of ready`));
      });
    });
  }

  /**
   * The addon's transform of `req` on the thread, or its reason for declining. A copy of the body goes
   * there, or with `lend` the body itself when it alone fills its ArrayBuffer: transferred there and
   * back (no copy either way), `req.body` is then the Buffer that came back (the one given is detached).
   * With `crc`, its value is the body's CRC-32 from its seed once the transform (or its decline) is answered.
   */
  transform(req: TransformRequest, lend = false, crc: BodyCrc | null = null): Promise<NativeBatch | string> {
    if (this.failed) return Promise.reject(this.failed);
    const id = this.nextId++;
    // A copy of the body transferred costs this thread a third of posting the Buffer (a cloned Buffer is
    // serialised slowly); without `lend` the caller keeps its own body for the log and the reference path.
    // A body in shared memory (the demo load's) is read there in place: its owner keeps it unchanged until answered.
    const shared = req.body.buffer instanceof SharedArrayBuffer;
    const given = !shared && lend && ownsItsMemory(req.body);
    const body = shared ? new Uint8Array(req.body.buffer, req.body.byteOffset, req.body.byteLength)
      : given ? new Uint8Array(req.body.buffer) : new Uint8Array(req.body);
    this.backIdle.use();
    const freed = this.back;
    if (freed.length > 0) {
      this.back = [];
      this.backBytes = 0;
      this.returned += freed.length;
    }
    const job: TransformJob = {
      id, req: { ...req, body: body as Buffer, idSeed: new Uint8Array(req.idSeed) as Buffer }, ...(given ? { lent: true } : {}), ...(crc ? { crcSeed: crc.seed } : {}),
      ...(freed.length > 0 ? { freedRows: freed.map((ab) => new Uint8Array(ab)) } : {}),
    };
    return new Promise<NativeBatch | string>((resolve, reject) => {
      this.track(id, { resolve: (b) => resolve(b as NativeBatch | string), reject, ...(given ? { lent: req } : {}), ...(crc ? { crc } : {}) });
      this.worker.postMessage(job, shared ? freed : [body.buffer as ArrayBuffer, ...freed]);
      this.posts++;
    });
  }

  /** Carrier buffers used again (tests). */
  get carriersReused(): number {
    return this.carriers.reused;
  }

  /**
   * `raw` compressed as `codec.compress` would, on the thread. Its bytes go in a carrier buffer (transferred,
   * and back with the answer: a fresh copy per block faulted its pages in each time); `raw` itself stays. The blocks
   * asked for in one tick (a hand-over asks for several) go in one message, answered by one: a message
   * costs ~15 µs of CPU on each side, as much as a fifth of compressing a 64 KiB block.
   */
  compress(raw: Uint8Array, codec: BlockCodec): Promise<Buffer> {
    if (this.failed) return Promise.reject(this.failed);
    const known = this.codecs.get(codec);
    const n = known ?? ++this.codecCount;
    if (known === undefined) this.codecs.set(codec, n);
    const first = known === undefined;
    const id = this.nextId++;
    const carrier = this.carriers.take(raw.byteLength) ?? Buffer.allocUnsafeSlow(roundUp(raw.byteLength, CARRIER_ROUND));
    carrier.set(raw);
    const block: CompressJob = { raw: new Uint8Array(carrier.buffer, 0, raw.byteLength), codec: n, level: codec.level, tuning: codec.tuning, ...(first ? { dict: codec.dict } : {}) };
    return new Promise<Buffer>((resolve, reject) => {
      this.track(id, { resolve: (b) => resolve(b as Buffer), reject });
      if (this.blocks.length === 0) queueMicrotask(() => this.postBlocks());
      this.blocks.push({ id, block });
    });
  }

  /** Messages posted to the thread (tests). */
  get posted(): number {
    return this.posts;
  }

  private postBlocks(): void {
    const blocks = this.blocks;
    this.blocks = [];
    if (this.failed || blocks.length === 0) return; // fail() rejected them
    try {
      this.worker.postMessage({ blocks } satisfies TransformJob, blocks.map((b) => b.block.raw.buffer as ArrayBuffer));
      this.posts++;
    } catch (e) {
      // Nothing was posted (a block's memory could not be transferred): each block's caller hears why.
      const err = new Error(`the blocks could not be posted to the ingest transform thread: ${e instanceof Error ? e.message : String(e)}`);
      for (const b of blocks) this.untrack(b.id)?.reject(err);
    }
  }

  /** Stops the thread (requests still open are left unanswered); the process stays up until it has. */
  close(): Promise<number> {
    this.closing = true;
    // An unref'd worker's exit would not keep the loop alive, and an await on close() would end the
    // process with "unsettled top-level await" (exit 13: `ringql query`).
    this.worker.ref();
    return this.worker.terminate();
  }

  /** An open job holds the process open (the demo load awaits answers with nothing else pending). */
  private track(id: number, p: Pending): void {
    if (this.pending.size === 0) this.worker.ref();
    this.pending.set(id, p);
  }

  /** The job `id` taken off the open ones; the last one lets the process exit again. */
  private untrack(id: number): Pending | undefined {
    const p = this.pending.get(id);
    if (!p) return undefined;
    this.pending.delete(id);
    if (this.pending.size === 0 && !this.closing) this.worker.unref(); // close() holds it until it exits
    return p;
  }

  private settle(m: Exclude<TransformAnswer, { answers: BlockAnswer[] }> | BlockAnswer): void {
    if ('carrier' in m && m.carrier) this.carriers.give(Buffer.from(m.carrier.buffer, m.carrier.byteOffset, m.carrier.byteLength));
    const p = this.untrack(m.id);
    if (!p) return;
    if (p.lent && 'body' in m && m.body) p.lent.body = asBuffer(m.body);
    if (p.crc && 'crc' in m && m.crc !== undefined) p.crc.value = m.crc;
    if ('error' in m) p.reject(new Error(`the ingest transform failed: ${m.error}`));
    else if ('declined' in m) p.resolve(m.declined);
    else if ('comp' in m) p.resolve(asBuffer(m.comp));
    else {
      const b = m.batch;
      p.resolve({ ...b, rows: asBuffer(b.rows), strs: asBuffer(b.strs), descs: asBuffer(b.descs) });
    }
  }

  private fail(e: Error): void {
    if (this.closing) return;
    if (this.failed === null) this.onFail(e);
    this.failed ??= e;
    for (const p of this.pending.values()) p.reject(e);
    this.pending.clear();
  }
}
