// One request/response pair over uWS: aborts tracked from the first line, the body read with a byte
// cap, and the reply written once, inside cork, never to an aborted response — redacted there when
// the request asked for redaction, so no error message, detail or header can bypass it.

import type { HttpResponse } from 'uWebSockets.js';
import { RingqlError } from '../core/errors.ts';
import type { Admission } from './admission.ts';
import type { RequestKind } from './http-limits.ts';
import { redactJsonText } from '../redact/redact-json.ts';
import { redactString } from '../redact/redact-string.ts';
import { recycleBody } from '../core/body-pool.ts';
import { statusLine, type Reply } from './reply.ts';
import { announcesBody, type RequestInfo } from './request-info.ts';
import { BodyAssembly, declaredLength } from './body-assembly.ts';

/** Rejection of a body read whose client went away (or was cut for being too slow); nothing is written for it. */
export class ClientAborted extends Error {
  constructor(message = 'client aborted the request') {
    super(message);
  }
}

/** How long a body may take: in all, and between two chunks (SPEC §11; RINGQL_BODY_TIMEOUT_MS, RINGQL_BODY_IDLE_TIMEOUT_MS). */
export interface BodyDeadline {
  totalMs: number;
  idleMs: number;
}

export class Exchange {
  aborted = false;
  /**
   * Set (never cleared) once the request is known to want redaction (SPEC §6, §11): every string
   * value of the JSON body and every header value is then redacted in send(), successes and errors alike.
   */
  redacted = false;
  private done = false;
  /** The body was read to its end (or there was none), so the connection may be kept alive. */
  private bodyConsumed: boolean;
  private rejectBody: ((err: Error) => void) | null = null;
  private slot: { admission: Admission; kind: RequestKind } | null = null;
  private bodyTimer: NodeJS.Timeout | null = null;
  /** The head went out and the body is being streamed (chunked): send() ends it. */
  private streaming = false;
  /** The stream waits for the socket to drain: settled by onWritable, or rejected by onAborted. */
  private drain: { resolve: () => void; reject: (err: Error) => void } | null = null;

  /** Registers onAborted at once: the caller constructs this before any await. */
  constructor(
    private readonly res: HttpResponse,
    readonly info: RequestInfo,
    private readonly extraHeaders: readonly [string, string][],
    private readonly onFinish: () => void,
    /** performance.now() when the request arrived, for X-Ringql-Elapsed-Us. */
    private readonly startedAt = performance.now(),
  ) {
    this.bodyConsumed = !announcesBody(info);
    res.onAborted(() => {
      this.aborted = true;
      this.rejectBody?.(new ClientAborted());
      this.drain?.reject(new ClientAborted());
      this.drain = null;
      this.finish();
    });
  }

  /** Takes an in-flight slot of `kind` (or throws 503); given back once when the exchange finishes, answered or aborted. */
  takeSlot(admission: Admission, kind: RequestKind): void {
    admission.admit(kind);
    this.slot = { admission, kind };
  }

  /**
   * Reads the whole body, at most `maxBytes` (413 past it, counted while streaming, so nothing more is
   * kept). A body that has not fully arrived by `deadline.totalMs`, or that pauses longer than
   * `deadline.idleMs`, is cut: the connection is closed, nothing is answered, and its slot comes back.
   * Must be called during the handler's synchronous run, before any await. `shared`: a large body is read
   * into a body slot (body-slots.ts), which the caller gives back once nothing reads the body.
   */
  readBody(maxBytes: number, deadline: BodyDeadline | null = null, shared = false): Promise<Buffer> {
    return new Promise<Buffer>((resolve, reject) => {
      this.rejectBody = reject;
      const body = new BodyAssembly(declaredLength(this.info.contentLength, maxBytes), shared);
      let total = 0;
      let settled = false;
      const started = Date.now();
      let lastChunk = started;
      if (deadline) {
        // Time the event loop was held (a heavy query) is not the client's: it is measured as the lateness
        // of this timer, which ticks at least every BODY_TICK_MS, and it extends the whole-body deadline.
        let stalledMs = 0;
        let tickDue = 0;
        const overdue = (now: number): number => now - Math.min(started + deadline.totalMs + stalledMs, lastChunk + deadline.idleMs);
        const schedule = (inMs: number): void => {
          const wait = Math.min(inMs, BODY_TICK_MS);
          tickDue = Date.now() + wait;
          this.bodyTimer = setTimeout(check, wait);
        };
        const check = (): void => {
          this.bodyTimer = null;
          if (settled || this.done) return;
          const lateness = Date.now() - tickDue;
          if (lateness > BODY_TICK_MS) stalledMs += lateness;
          const late = overdue(Date.now());
          if (late < 0) {
            schedule(-late);
            return;
          }
          // Timers run before socket reads in an event-loop turn: after a long synchronous stretch (a
          // heavy query) bytes that arrived meanwhile are not delivered yet. setImmediate runs after
          // the reads, so the body is judged on what truly arrived, not on how long the loop was busy.
          setImmediate(() => {
            if (settled || this.done) return;
            const now = Date.now();
            if (overdue(now) < 0) {
              schedule(-overdue(now));
              return;
            }
            settled = true;
            this.cut(`the request body did not arrive in time (${now - started} ms, ${total} bytes)`);
          });
        };
        schedule(Math.min(deadline.totalMs, deadline.idleMs));
      }
      this.res.onData((chunk, isLast) => {
        if (settled) return;
        lastChunk = Date.now();
        total += chunk.byteLength;
        if (total > maxBytes) {
          settled = true;
          this.rejectBody = null;
          this.clearBodyTimer();
          reject(tooLarge(maxBytes));
          return;
        }
        // uWS neuters the ArrayBuffer when this callback returns, so it is copied.
        body.add(chunk);
        if (isLast) {
          settled = true;
          this.bodyConsumed = true;
          this.rejectBody = null;
          this.clearBodyTimer();
          resolve(body.finish());
        }
      });
    });
  }

  /** Closes the connection without an answer (a body too slow to wait for); onAborted then finishes the exchange. */
  private cut(reason: string): void {
    this.rejectBody?.(new ClientAborted(reason));
    this.rejectBody = null;
    if (!this.aborted && !this.done) this.res.close();
  }

  private clearBodyTimer(): void {
    if (this.bodyTimer) clearTimeout(this.bodyTimer);
    this.bodyTimer = null;
  }

  /**
   * Writes the next piece of a streamed 200 body (the first call writes the head: `head` and the fixed
   * headers, no Content-Length, so uWS sends it chunked). Resolves at once when the socket took it
   * all, else once it drained (uWS keeps what the socket did not take; nothing more is made meanwhile).
   */
  writeChunk(chunk: Buffer, head: Reply): Promise<void> {
    if (this.aborted || this.done) return Promise.reject(new ClientAborted());
    let ok = true;
    this.res.cork(() => {
      if (!this.streaming) {
        this.streaming = true;
        this.res.writeStatus(statusLine(200));
        for (const [k, v] of this.extraHeaders) this.res.writeHeader(k, v);
        for (const [k, v] of (this.redacted ? redactReply(head) : head).headers ?? []) this.res.writeHeader(k, v);
        this.res.writeHeader('X-Ringql-Elapsed-Us', elapsedUs(this.startedAt));
        this.res.writeHeader('Content-Type', head.contentType ?? 'application/json; charset=utf-8');
      }
      if (chunk.length) ok = this.res.write(chunk);
    });
    if (ok) return Promise.resolve();
    return new Promise<void>((resolve, reject) => {
      this.drain = { resolve, reject };
      this.res.onWritable(() => {
        const d = this.drain;
        this.drain = null;
        d?.resolve();
        return true;
      });
    });
  }

  /** Writes the reply once; closes the connection when the body was not read to its end or when asked. */
  send(reply: Reply, closeConnection = false): void {
    if (this.aborted || this.done) return;
    if (this.streaming) {
      this.endStream(reply);
      return;
    }
    const own = reply.recyclable === true && Buffer.isBuffer(reply.body) ? reply.body : null;
    if (this.redacted) reply = redactReply(reply);
    const head = this.info.method === 'HEAD';
    const close = closeConnection || !this.bodyConsumed;
    this.res.cork(() => {
      this.res.writeStatus(statusLine(reply.status));
      // The fixed headers (CORS) are the operator's configuration, not request data: an origin such as
      // http://10.0.0.5:3000 must stay intact or browsers would refuse redacted answers.
      for (const [k, v] of this.extraHeaders) this.res.writeHeader(k, v);
      if (reply.headers) for (const [k, v] of reply.headers) this.res.writeHeader(k, v);
      this.res.writeHeader('X-Ringql-Elapsed-Us', elapsedUs(this.startedAt));
      if (reply.body === undefined) {
        // Without arguments uWS writes no Content-Length, as a 204 must; (undefined, close) is not accepted.
        if (close) this.res.endWithoutBody(0, true);
        else this.res.endWithoutBody();
      } else {
        this.res.writeHeader('Content-Type', reply.contentType ?? 'application/json; charset=utf-8');
        if (head) this.res.endWithoutBody(Buffer.byteLength(reply.body), close);
        else this.res.end(reply.body, close);
      }
    });
    // uWS copied the bytes (to the socket or its own backpressure buffer): the body's memory is free again.
    if (own) recycleBody(own);
    this.finish();
  }

  /** Ends a streamed body with the reply's last piece; any other reply (an error after the head) can only cut the connection. */
  private endStream(reply: Reply): void {
    if (reply.status === 200 && reply.streamed) {
      const tail = reply.body === undefined ? '' : this.redacted && !reply.bodyRedacted ? redactReply(reply).body! : reply.body;
      this.res.cork(() => this.res.end(tail, !this.bodyConsumed));
    } else {
      this.res.close();
    }
    this.finish();
  }

  private finish(): void {
    if (this.done) return;
    this.done = true;
    this.rejectBody = null;
    this.clearBodyTimer();
    if (this.slot) this.slot.admission.release(this.slot.kind);
    this.slot = null;
    this.onFinish();
  }
}

/** The reply with every header value and, unless it is marked already redacted, every JSON string value redacted. */
export function redactReply(reply: Reply): Reply {
  const out: Reply = { ...reply };
  if (reply.headers) out.headers = reply.headers.map(([k, v]) => [k, redactString(v)]);
  if (reply.body !== undefined && !reply.bodyRedacted) {
    const text = typeof reply.body === 'string' ? reply.body : reply.body.toString('utf8');
    const redacted = redactJsonText(text);
    if (redacted !== text) out.body = redacted;
    out.bodyRedacted = true;
  }
  return out;
}

/** Whole µs since `startedAt` (a performance.now() reading), as header text. */
export function elapsedUs(startedAt: number): string {
  return String(Math.max(0, Math.round((performance.now() - startedAt) * 1000)));
}

/** Longest wait between two checks of a body's deadline, so an event-loop stall is measured to within it. */
const BODY_TICK_MS = 250;

export function tooLarge(maxBytes: number): RingqlError {
  return new RingqlError('payload_too_large', `The request body is larger than the ${maxBytes}-byte limit`, { limit: maxBytes });
}
