// Starts the uWebSockets.js server: native binary only, an exclusive port (0 picks a free one), one
// catch-all handler feeding dispatch(), and a graceful close that lets in-flight requests finish.

import type { us_listen_socket } from 'uWebSockets.js';
import type { QueryService } from '../endpoints/service-types.ts';
import { Admission } from './admission.ts';
import type { TokenSet } from './auth.ts';
import { corsHeaders } from './cors.ts';
import { dispatch, type DispatchConfig } from './dispatch.ts';
import { errorReply } from './errors-response.ts';
import { ClientAborted, Exchange } from './exchange.ts';
import { DEFAULT_BODY_IDLE_TIMEOUT_MS, DEFAULT_BODY_TIMEOUT_MS, type InflightLimits } from './http-limits.ts';
import type { Reply } from './reply.ts';
import { copyRequest } from './request-info.ts';
import { buildRouter } from './routes.ts';
import { loadUws } from './uws.ts';
import { recordFailure } from './metrics/record-failure.ts';
import { ServerMetrics } from './metrics/server-metrics.ts';
import { LiveHub } from './live/live-hub.ts';
import { DEFAULT_LIVE_LIMITS, type LiveLimits } from './live/live-limits.ts';
import { addLiveRoute } from './live/live-route.ts';
import { makeHitPath } from './hit-path.ts';

export { assertNativeUws } from './uws.ts';

export interface ServerOptions {
  service: QueryService;
  host: string;
  port: number;
  tokens: TokenSet;
  corsOrigin: string;
  maxBodyBytes: number;
  maxUrlBytes: number;
  maxDecompressedBytes: number;
  /** Requests of each kind served at once unless `inflight` says otherwise; beyond, 503 `overloaded` with Retry-After (default 512). */
  maxConcurrentRequests?: number;
  /** In-flight limits per kind (ingest, query runs, other); `/health` is never counted. */
  inflight?: Partial<InflightLimits>;
  /** A request body must arrive within this many ms in all (default 10 000)... */
  bodyTimeoutMs?: number;
  /** ...with no pause between chunks longer than this (default 5 000); else the connection is closed. */
  bodyIdleTimeoutMs?: number;
  log?: (line: string) => void;
  /** GET /metrics without a token (RINGQL_METRICS_PUBLIC=1); default false. */
  metricsPublic?: boolean;
  /** How long close() waits for in-flight requests before cutting them (default 10 s). */
  drainTimeoutMs?: number;
  /** Bounds of live subscriptions (subscriptions per token, unread bytes per consumer, token wait). */
  live?: Partial<LiveLimits>;
}

export interface RunningServer {
  port: number;
  /** Stops accepting, waits for in-flight requests, then closes every connection. */
  close(): Promise<void>;
}

export async function startServer(opts: ServerOptions): Promise<RunningServer> {
  const uws = await loadUws();
  const log = opts.log ?? ((line: string) => void process.stderr.write(`${line}\n`));
  const perKind = opts.maxConcurrentRequests ?? 512;
  const cfg: DispatchConfig = {
    service: opts.service,
    metrics: new ServerMetrics(),
    tokens: opts.tokens,
    router: buildRouter(Date.now(), opts.metricsPublic ?? false),
    maxBodyBytes: opts.maxBodyBytes,
    maxUrlBytes: opts.maxUrlBytes,
    maxDecompressedBytes: opts.maxDecompressedBytes,
    admission: new Admission({ ingest: perKind, query: perKind, other: perKind, ...opts.inflight }),
    bodyDeadline: { totalMs: opts.bodyTimeoutMs ?? DEFAULT_BODY_TIMEOUT_MS, idleMs: opts.bodyIdleTimeoutMs ?? DEFAULT_BODY_IDLE_TIMEOUT_MS },
  };
  const baseHeaders = corsHeaders(opts.corsOrigin);
  let inflight = 0;
  let closing = false;
  let onDrained: (() => void) | null = null;
  const finished = (): void => {
    inflight--;
    if (closing && inflight === 0) onDrained?.();
  };

  const app = uws.App();
  const live = new LiveHub({ service: opts.service, tokens: opts.tokens, limits: { ...DEFAULT_LIVE_LIMITS, ...opts.live }, maxUrlBytes: opts.maxUrlBytes, log });
  addLiveRoute(app, live);
  const answerHit = makeHitPath(cfg, baseHeaders);
  app.any('/*', (res, req) => {
    const startedAt = performance.now();
    const info = copyRequest(req);
    // A cached answer is written before this handler returns; a closing server answers with Connection: close.
    // A miss the hit check routed and authorised goes on as it is, not parsed again.
    const checked = closing ? null : answerHit(res, info, startedAt);
    if (checked === true) return;
    // Counted for the graceful close only; shedding is per kind, in dispatch (admission.ts).
    inflight++;
    const ex = new Exchange(res, info, baseHeaders, finished, startedAt);
    let pending: Promise<Reply>;
    try {
      pending = dispatch(ex, cfg, checked);
    } catch (err) {
      pending = Promise.reject(err);
    }
    pending
      .then(
        (reply) => ex.send(reply, closing),
        (err: unknown) => {
          if (err instanceof ClientAborted) return;
          recordFailure(cfg.metrics, cfg.service, ex.info.method, ex.info.path, err);
          ex.send(errorReply(err, log, `${ex.info.method} ${ex.info.path}`), closing);
        },
      )
      .catch((err: unknown) => log(`ringql: failed to write a response: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`));
  });

  const listenSocket = await new Promise<us_listen_socket>((resolve, reject) => {
    app.listen(opts.host, opts.port, uws.LIBUS_LISTEN_EXCLUSIVE_PORT, (socket: us_listen_socket | false) => {
      if (socket) resolve(socket);
      else reject(new Error(`Cannot listen on ${opts.host}:${opts.port}: the port is already in use or the address is not available here`));
    });
  }).catch((err: unknown) => {
    app.close();
    throw err;
  });
  const port = uws.us_socket_local_port(listenSocket);

  let closed: Promise<void> | null = null;
  const close = async (): Promise<void> => {
    closing = true;
    uws.us_listen_socket_close(listenSocket);
    live.closeAll();
    if (inflight > 0) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, opts.drainTimeoutMs ?? 10_000);
        onDrained = () => {
          clearTimeout(timer);
          resolve();
        };
      });
    }
    // A moment for the last responses to leave the socket buffers before every connection is closed.
    await new Promise((r) => setTimeout(r, 20));
    app.close();
  };
  return {
    port,
    close: () => (closed ??= close()),
  };
}
