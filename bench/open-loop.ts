// An open-loop HTTP load generator (issue 18, p99 at a fixed rate): request k is due at start + k/rate
// whatever the server does, and its latency counts from that due time, not from when it could be sent,
// so a stall shows in the percentiles instead of pausing the load (no coordinated omission).
//   Run: node --import tsx bench/open-loop.ts <url> <req/s> <seconds> <connections> <token>  (prints JSON)

import { connect, type Socket } from 'node:net';

export interface OpenLoopFigure {
  /** Requests due during the run, and answered (status 200) by its end. */
  due: number;
  answered: number;
  non200: number;
  reqPerSec: number;
  /** Latency from due time to the last byte of the answer, ms. */
  p50ms: number;
  p99ms: number;
  p999ms: number;
  maxms: number;
  /** The same percentile measured from the moment each request was written (what wrk reports). */
  p99FromSendMs: number;
  /** How late the generator itself wrote requests (due → write), p99, ms: its own share of the latency. */
  sendLagP99ms: number;
  /** This process's CPU time ÷ wall time. */
  cpu: number;
}

interface Conn {
  socket: Socket;
  /** Due times (ms, performance.now()) of requests waiting for this connection, oldest first. */
  queue: number[];
  inflight: { due: number; sent: number } | null;
  buf: Buffer;
}

function percentile(sorted: Float64Array, p: number): number {
  return sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]! : NaN;
}

const HEAD_END = Buffer.from('\r\n\r\n');
const LENGTH = Buffer.from('\r\ncontent-length:');
/** How uWS spells it: found by the native indexOf; any other spelling by the caseless scan. */
const UWS_LENGTH = Buffer.from('\r\nContent-Length:');

/**
 * Length and status of the first complete response in `buf` (head with Content-Length, then body),
 * or null while it is incomplete; read from the bytes without decoding the head to a string.
 */
function responseLength(buf: Buffer): { length: number; status: number } | null {
  const end = buf.indexOf(HEAD_END);
  if (end < 0) return null;
  let at = buf.indexOf(UWS_LENGTH);
  if (at < 0 || at > end) at = indexOfCaseless(buf, LENGTH, end);
  if (at < 0) throw new Error(`open loop: an answer without Content-Length: ${buf.toString('latin1', 0, Math.min(end, 200))}`);
  at += LENGTH.length;
  while (buf[at] === 32) at++;
  let n = 0;
  for (let c = buf[at]!; c >= 48 && c <= 57; c = buf[++at]!) n = n * 10 + (c - 48);
  const length = end + 4 + n;
  if (buf.length < length) return null;
  return { length, status: (buf[9]! - 48) * 100 + (buf[10]! - 48) * 10 + (buf[11]! - 48) };
}

/** Index of `needle` (lower case) in buf[0, limit), comparing ASCII letters without case, or -1. */
function indexOfCaseless(buf: Buffer, needle: Buffer, limit: number): number {
  outer: for (let i = 0; i + needle.length <= limit; i++) {
    for (let j = 0; j < needle.length; j++) if ((buf[i + j]! | 0x20) !== (needle[j]! | 0x20)) continue outer;
    return i;
  }
  return -1;
}

export async function openLoop(url: string, rate: number, seconds: number, connections: number, token: string): Promise<OpenLoopFigure> {
  const u = new URL(url);
  const request = Buffer.from(`GET ${u.pathname}${u.search} HTTP/1.1\r\nHost: ${u.host}\r\nX-API-KEY: ${token}\r\n\r\n`, 'latin1');
  const conns: Conn[] = await Promise.all(Array.from({ length: connections }, () => new Promise<Conn>((resolve, reject) => {
    const socket = connect(Number(u.port), u.hostname, () => resolve({ socket, queue: [], inflight: null, buf: Buffer.alloc(0) }));
    socket.setNoDelay(true);
    socket.once('error', reject);
  })));
  const total = Math.floor(rate * seconds);
  const latency = new Float64Array(total), fromSend = new Float64Array(total), lag = new Float64Array(total);
  let answered = 0, non200 = 0, sends = 0;
  const send = (c: Conn): void => {
    const due = c.queue.shift();
    if (due === undefined) return;
    const sent = performance.now();
    c.inflight = { due, sent };
    lag[sends++] = sent - due;
    c.socket.write(request);
  };
  for (const c of conns) {
    c.socket.on('data', (d: Buffer) => {
      c.buf = c.buf.length ? Buffer.concat([c.buf, d]) : d;
      const r = responseLength(c.buf);
      if (!r || !c.inflight) return;
      const now = performance.now();
      c.buf = c.buf.subarray(r.length);
      if (r.status === 200) {
        latency[answered] = now - c.inflight.due;
        fromSend[answered] = now - c.inflight.sent;
        answered++;
      } else {
        non200++;
      }
      c.inflight = null;
      send(c);
    });
  }
  const cpu0 = process.cpuUsage();
  const t0 = performance.now() + 5;
  let next = 0;
  await new Promise<void>((resolve) => {
    // Issues every request whose due time has come; between due times the loop yields (setImmediate
    // when the next is under a millisecond away, a timer otherwise) so answers are read meanwhile.
    const tick = (): void => {
      const now = performance.now();
      while (next < total && t0 + (next * 1000) / rate <= now) {
        const c = conns[next % connections]!;
        c.queue.push(t0 + (next * 1000) / rate);
        next++;
        if (!c.inflight) send(c);
      }
      if (next >= total && answered + non200 >= total) { resolve(); return; }
      if (now > t0 + seconds * 1000 + 10_000) { resolve(); return; } // answers still missing 10 s after the last was due
      const wait = next < total ? t0 + (next * 1000) / rate - now : 1;
      if (wait < 1) setImmediate(tick);
      else setTimeout(tick, Math.floor(wait));
    };
    tick();
  });
  const wall = (performance.now() - t0) / 1000;
  const c = process.cpuUsage(cpu0);
  for (const x of conns) x.socket.destroy();
  const sorted = latency.slice(0, answered).sort();
  return {
    due: total, answered, non200, reqPerSec: answered / wall,
    p50ms: percentile(sorted, 0.5), p99ms: percentile(sorted, 0.99), p999ms: percentile(sorted, 0.999), maxms: sorted[sorted.length - 1] ?? NaN,
    p99FromSendMs: percentile(fromSend.slice(0, answered).sort(), 0.99),
    sendLagP99ms: percentile(lag.slice(0, sends).sort(), 0.99),
    cpu: (c.user + c.system) / 1e6 / wall,
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [url, rate, seconds, connections, token] = process.argv.slice(2);
  openLoop(url!, Number(rate), Number(seconds), Number(connections ?? 16), token ?? '')
    .then((f) => process.stdout.write(JSON.stringify(f) + '\n'))
    .catch((err: unknown) => {
      process.stderr.write(`open loop failed: ${err instanceof Error ? err.stack : String(err)}\n`);
      process.exit(1);
    });
}
