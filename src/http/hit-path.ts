// The synchronous cache-hit path (issue 18): a GET run whose answer a cache holds is written inside the
// uWS handler's synchronous run — no promise — with its header block encoded once per cached answer.
// Anything else (a miss, an error, a body, a HEAD, a closing server) goes to the async path; a miss it
// routed, decoded and authorised is handed on as a CheckedRequest, so dispatch() does not do it again.

import type { HttpResponse } from 'uWebSockets.js';
import type { RunRequest, RunResponse } from '../endpoints/service-types.ts';
import { redactString } from '../redact/redact-string.ts';
import { authorize, presentedToken } from './auth.ts';
import type { DispatchConfig } from './dispatch.ts';
import { MAX_HEADER_BYTES, MAX_HEADER_COUNT } from './http-limits.ts';
import { parseFormQuery } from './form-params.ts';
import { announcesBody, type RequestInfo } from './request-info.ts';
import { runReply } from './routes-run.ts';
import type { CheckedRequest } from './route.ts';

/**
 * A cached answer's response head in three pieces around its two per-request values, Age and
 * X-Ringql-Elapsed-Us. uWS writes a header as `name: value\r\n` without looking inside the value, so
 * the whole block goes out in one writeHeader call: `first` is the first header's name, the pieces
 * its value followed by the other lines, in the order Exchange.send writes them.
 */
interface EncodedHead {
  first: string;
  beforeAge: string;
  beforeElapsed: string;
  rest: string;
  /** What the block was made from, so a reused body buffer with other metadata is never misanswered. */
  of: RunResponse;
}

/** true: answered; a CheckedRequest: a plain authorised GET run not cached; null: dispatch() decides everything. */
export type HitAnswerer = (res: HttpResponse, info: RequestInfo, startedAt: number) => true | CheckedRequest | null;

/**
 * The hit path of one server; `baseHeaders` are the headers of every response (CORS). Must be called
 * during the uWS handler's synchronous run: uWS has the socket corked then, so the head and body go
 * out in one write without a cork() call, and with no writeStatus uWS writes `200 OK` itself.
 */
export function makeHitPath(cfg: DispatchConfig, baseHeaders: readonly [string, string][]): HitAnswerer {
  const heads = new WeakMap<Buffer, EncodedHead>();
  const urls = new UrlMemo();
  const runCached = cfg.service.runCached?.bind(cfg.service);
  if (!runCached) return () => null;
  return (res, info, startedAt) => {
    const found = lookUp(cfg, urls, info, runCached);
    if (found === null || !('body' in found)) return found;
    const r = found;
    let head = heads.get(r.body);
    if (!head || !sameHead(head.of, r)) {
      head = encodeHead(r, baseHeaders);
      heads.set(r.body, head);
    }
    const done = performance.now();
    res.writeHeader(head.first, head.beforeAge + r.ageSeconds + head.beforeElapsed + wholeUs(done - startedAt) + head.rest);
    res.end(r.body);
    cfg.metrics.answered(r.endpoint ?? '(unknown)', r.cacheKind ?? 'result', (done - startedAt) / 1000);
    return true;
  };
}

/** Whole µs of a performance.now() difference, as exchange.ts's elapsedUs writes them. */
function wholeUs(ms: number): number {
  return ms > 0 ? Math.round(ms * 1000) : 0;
}

/** A URL's route and decoded query, kept once a cache answered it: dashboards ask the same URLs over and over. */
type ParsedUrl = CheckedRequest;

/** URLs remembered at most (the memo starts over when full), and the longest one remembered. */
const MAX_URLS = 4096;
const MAX_REMEMBERED_URL = 512;

/** Parsed URLs by path, then query string: two lookups of the strings uWS gave, no joined key to build. */
class UrlMemo {
  private readonly byPath = new Map<string, Map<string, ParsedUrl | null>>();
  private size = 0;

  get(path: string, query: string): ParsedUrl | null | undefined {
    return this.byPath.get(path)?.get(query);
  }

  set(path: string, query: string, parsed: ParsedUrl | null): void {
    if (path.length + query.length > MAX_REMEMBERED_URL) return;
    if (this.size >= MAX_URLS) {
      this.byPath.clear();
      this.size = 0;
    }
    let byQuery = this.byPath.get(path);
    if (!byQuery) this.byPath.set(path, (byQuery = new Map()));
    byQuery.set(query, parsed);
    this.size++;
  }
}

/**
 * The route and query of a URL not yet remembered; null (remembered at once: routes never change) when
 * it is no run route. A parsed URL is remembered only once a cache answers it (lookUp): a computed
 * request's URL, new each time when a parameter rotates, would only fill the memo and keep its garbage alive.
 */
function parseUrl(cfg: DispatchConfig, urls: UrlMemo, info: RequestInfo): ParsedUrl | null {
  const m = cfg.router.match('GET', info.path);
  if (m.kind !== 'found' || !m.route.hitRequest) {
    urls.set(info.path, info.query, null);
    return null;
  }
  return { route: m.route, params: m.params, query: parseFormQuery(info.query) };
}

/**
 * The cached answer of a plain, authorised GET run; else that request routed, decoded and authorised
 * for dispatch() to compute; null when anything else (an error included) is for dispatch() to decide.
 */
function lookUp(cfg: DispatchConfig, urls: UrlMemo, info: RequestInfo, runCached: (req: RunRequest) => RunResponse | null): RunResponse | CheckedRequest | null {
  if (info.method !== 'GET' || info.urlBytes > cfg.maxUrlBytes || announcesBody(info)) return null;
  if (info.headerBytes > MAX_HEADER_BYTES || info.headerCount > MAX_HEADER_COUNT) return null;
  try {
    const known = urls.get(info.path, info.query);
    const remembered = known !== undefined;
    const u = remembered ? known : parseUrl(cfg, urls, info);
    if (!u) return null;
    authorize(cfg.tokens, presentedToken(info.authorization, info.apiKey, u.query), u.route.access);
    // The slot is taken and given back at once: a full server still sheds as dispatch() would.
    const kind = u.route.kind ?? 'other';
    if (kind !== 'unlimited') {
      cfg.admission.admit(kind);
      cfg.admission.release(kind);
    }
    const r = runCached(u.route.hitRequest!({ info, params: u.params, query: u.query }));
    if (!r) return u;
    if (!remembered) urls.set(info.path, info.query, u);
    return r;
  } catch {
    return null; // the async path answers the same error
  }
}

function sameHead(a: RunResponse, b: RunResponse): boolean {
  return a.rowCount === b.rowCount && a.truncated === b.truncated && a.cacheKind === b.cacheKind && a.format === b.format && a.redacted === b.redacted;
}

const AGE = '\u0000age\u0000';
const ELAPSED = '\u0000elapsed\u0000';

/** Encodes the head Exchange.send would write for `r`, with markers where Age and the elapsed time go. */
function encodeHead(r: RunResponse, baseHeaders: readonly [string, string][]): EncodedHead {
  const reply = runReply({ ...r, ageSeconds: 0, timings: [] });
  const headers: [string, string][] = [...baseHeaders];
  for (const [k, v] of reply.headers ?? []) {
    // As Exchange.send redacts a redacted request's header values (never the fixed CORS ones).
    const value = k === 'Age' ? AGE : r.redacted ? redactString(v) : v;
    headers.push([k, value]);
  }
  headers.push(['X-Ringql-Elapsed-Us', ELAPSED], ['Content-Type', reply.contentType ?? 'application/json; charset=utf-8']);
  const [first, ...others] = headers;
  const text = first![1] + others.map(([k, v]) => `\r\n${k}: ${v}`).join('');
  const [beforeAge, afterAge] = text.split(AGE) as [string, string];
  const [beforeElapsed, rest] = afterAge.split(ELAPSED) as [string, string];
  return { first: first![0], beforeAge, beforeElapsed, rest, of: r };
}
