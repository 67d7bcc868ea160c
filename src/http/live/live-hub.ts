// Every live subscription of one server: authentication (URL, headers or the first message), the
// per-token bound, the update loop (one pending step per subscription, at most once per interval),
// the slow-consumer close, errors as `{"error": ...}` then a close, and closing all at shutdown.

import { createHash } from 'node:crypto';
import { RingqlError, internalErrorBody } from '../../core/errors.ts';
import type { LiveFeed, QueryService } from '../../endpoints/service-types.ts';
import { redactJsonText } from '../../redact/redact-json.ts';
import { authorize, presentedToken, type TokenSet } from '../auth.ts';
import { parseFormQuery } from '../form-params.ts';
import { CLOSE_GOING_AWAY, CLOSE_SLOW_CONSUMER, closeCodeForStatus } from './live-close-codes.ts';
import { intervalMs, type LiveLimits } from './live-limits.ts';

/** What the hub needs of a WebSocket; the uWS adapter lives in live-route.ts. */
export interface LiveSocket {
  /** Queues a text message; false when the transport dropped it. */
  send(text: string | Buffer): boolean;
  end(code: number, reason: string): void;
  /** Bytes queued and not yet written to the network. */
  bufferedAmount(): number;
}

/** The upgrade request, copied before the socket opens. */
export interface LiveRequestInfo {
  endpoint: string;
  query: string;
  authorization: string;
  apiKey: string;
  redactHeader: boolean;
  urlBytes: number;
}

interface Sub {
  socket: LiveSocket;
  info: LiveRequestInfo;
  closed: boolean;
  /** Hash of the token counted against maxPerToken, once the subscription started. */
  tokenKey: string | null;
  timer: NodeJS.Timeout | null;
  /** Errors are redacted when the endpoint or the request asks for redaction. */
  redact: boolean;
  /** Set once the first message went out; then `timer` is the next update's. */
  feed: LiveFeed | null;
  every: number;
  /** performance.now() when the last update step began, and when the last one that sent a message began. */
  lastStep: number;
  lastSentStep: number;
  stepping: boolean;
  /** performance.now() when `timer` fires. */
  due: number;
}

export interface LiveHubOptions {
  service: QueryService;
  tokens: TokenSet;
  limits: LiveLimits;
  maxUrlBytes: number;
  log: (line: string) => void;
}

/** Least time between two ingest-triggered steps of one subscription: a quarter interval, at least 100 ms. */
function nudgeGap(every: number): number {
  return Math.min(every, Math.max(100, every / 4));
}

export class LiveHub {
  private readonly subs = new Set<Sub>();
  private readonly perToken = new Map<string, number>();
  private readonly unlisten: () => void;
  private nudgeQueued = false;

  constructor(private readonly opts: LiveHubOptions) {
    this.unlisten = opts.service.onIngest(() => this.nudge());
  }

  get size(): number {
    return this.subs.size;
  }

  /** A socket opened: starts at once when the URL or headers carry a token, else waits for the first message. */
  open(socket: LiveSocket, info: LiveRequestInfo): Sub {
    const sub: Sub = { socket, info, closed: false, tokenKey: null, timer: null, redact: info.redactHeader, feed: null, every: 0, lastStep: 0, lastSentStep: 0, stepping: false, due: 0 };
    this.subs.add(sub);
    try {
      if (info.urlBytes > this.opts.maxUrlBytes) throw new RingqlError('uri_too_long', `The URL is longer than the ${this.opts.maxUrlBytes}-byte limit`, { limit: this.opts.maxUrlBytes });
      sub.redact ||= this.opts.service.endpointRedacts(info.endpoint);
      const token = presentedToken(info.authorization, info.apiKey, parseFormQuery(info.query));
      if (token !== null) void this.start(sub, token);
      else sub.timer = setTimeout(() => this.fail(sub, new RingqlError('unauthorized', 'No access token arrived: put api_key in the URL or send {"api_key": "<token>"} as the first message')), this.opts.limits.authTimeoutMs);
    } catch (err) {
      this.fail(sub, err);
    }
    return sub;
  }

  /** A message from the client: only the first one of a socket still waiting for its token means anything. */
  message(sub: Sub, data: Buffer): void {
    if (sub.closed || sub.tokenKey !== null || sub.timer === null) return;
    clearTimeout(sub.timer);
    sub.timer = null;
    let msg: unknown;
    try {
      msg = JSON.parse(data.toString('utf8'));
    } catch {
      msg = null;
    }
    const obj = msg !== null && typeof msg === 'object' && !Array.isArray(msg) ? (msg as Record<string, unknown>) : {};
    if (typeof obj.api_key !== 'string' || obj.api_key === '') {
      this.fail(sub, new RingqlError('unauthorized', 'The first message must be {"api_key": "<token>"} (optionally with "redact_pii": true)'));
      return;
    }
    // Browsers cannot send LF-ENDPOINT-REDACT-PII on a WebSocket: the first message carries it instead (it can only turn redaction on).
    if (obj.redact_pii === true || obj.redact_pii === 'true') sub.redact = sub.info.redactHeader = true;
    void this.start(sub, obj.api_key);
  }

  closed(sub: Sub): void {
    if (sub.closed) return;
    sub.closed = true;
    if (sub.timer) clearTimeout(sub.timer);
    sub.timer = null;
    this.subs.delete(sub);
    if (sub.tokenKey !== null) {
      const n = (this.perToken.get(sub.tokenKey) ?? 1) - 1;
      if (n <= 0) this.perToken.delete(sub.tokenKey);
      else this.perToken.set(sub.tokenKey, n);
    }
  }

  /** Server shutdown: every subscription is closed with 1001. */
  closeAll(): void {
    this.unlisten();
    for (const sub of [...this.subs]) {
      sub.socket.end(CLOSE_GOING_AWAY, 'server shutting down');
      this.closed(sub);
    }
  }

  private async start(sub: Sub, token: string): Promise<void> {
    try {
      authorize(this.opts.tokens, token, 'query');
      const key = createHash('sha256').update(token).digest('base64');
      const held = this.perToken.get(key) ?? 0;
      if (held >= this.opts.limits.maxPerToken) {
        throw new RingqlError('too_many_requests', `This token holds ${held} live subscriptions already, the limit; close one first`, { limit: this.opts.limits.maxPerToken });
      }
      sub.tokenKey = key;
      this.perToken.set(key, held + 1);
      const query = parseFormQuery(sub.info.query);
      const every = intervalMs(query.get('interval_ms'));
      const feed = this.opts.service.subscribe({ endpoint: sub.info.endpoint, params: query, redactHeader: sub.info.redactHeader });
      sub.redact ||= feed.redacted;
      sub.lastStep = sub.lastSentStep = performance.now();
      const first = await feed.first();
      if (sub.closed) return;
      if (!sub.socket.send(first)) return this.slow(sub);
      sub.feed = feed;
      sub.every = every;
      this.schedule(sub);
    } catch (err) {
      this.fail(sub, err);
    }
  }

  /**
   * Steps run once per interval on a timer (buckets also leave windows as time passes) and, after an
   * ingest, at once when the last message is an interval old, so an update follows its events without
   * waiting for the timer. Messages never come more often than once per interval; steps after ingests
   * that sent nothing (other projects' events) are spaced by nudgeGap. One step at a time per subscription.
   */
  private schedule(sub: Sub, due = sub.lastStep + sub.every): void {
    if (sub.closed) return;
    if (sub.timer) clearTimeout(sub.timer);
    sub.due = due;
    sub.timer = setTimeout(() => void this.step(sub), Math.max(0, due - performance.now()));
  }

  /** After a batch was stored: steps every subscription whose interval has passed (once per event-loop turn). */
  private nudge(): void {
    if (this.nudgeQueued || this.subs.size === 0) return;
    this.nudgeQueued = true;
    setImmediate(() => {
      this.nudgeQueued = false;
      const now = performance.now();
      for (const sub of this.subs) {
        if (!sub.feed || sub.stepping || sub.closed) continue;
        // The earliest moment the rate limit allows: an interval after the last message, a gap after the last step.
        const due = Math.max(sub.lastSentStep + sub.every, sub.lastStep + nudgeGap(sub.every));
        if (due <= now) {
          if (sub.timer) clearTimeout(sub.timer);
          void this.step(sub);
        } else if (due < sub.due) this.schedule(sub, due);
      }
    });
  }

  private async step(sub: Sub): Promise<void> {
    sub.timer = null;
    const feed = sub.feed;
    if (sub.closed || !feed || sub.stepping) return;
    if (sub.socket.bufferedAmount() > this.opts.limits.maxBufferedBytes) return this.slow(sub);
    sub.stepping = true;
    sub.lastStep = performance.now();
    try {
      const msg = await feed.next();
      if (sub.closed) return;
      if (msg && !sub.socket.send(msg)) return this.slow(sub);
      if (msg) sub.lastSentStep = sub.lastStep;
      sub.stepping = false;
      this.schedule(sub);
    } catch (err) {
      this.fail(sub, err);
    } finally {
      sub.stepping = false;
    }
  }

  private slow(sub: Sub): void {
    if (sub.closed) return;
    sub.socket.end(CLOSE_SLOW_CONSUMER, 'consumer too slow: messages were not read in time');
    this.closed(sub);
  }

  /** Sends the error body (redacted when the subscription asks for it), then closes with 4000 + status. */
  private fail(sub: Sub, err: unknown): void {
    if (sub.closed) return;
    let body: string;
    let status: number;
    if (err instanceof RingqlError) {
      body = JSON.stringify(err.toBody());
      status = err.status;
    } else {
      this.opts.log(`ringql: internal error in a live subscription to ${sub.info.endpoint.slice(0, 200)}: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
      body = JSON.stringify(internalErrorBody());
      status = 500;
    }
    sub.socket.send(sub.redact ? redactJsonText(body) : body);
    sub.socket.end(closeCodeForStatus(status), status === 500 ? 'internal' : 'error');
    this.closed(sub);
  }
}
