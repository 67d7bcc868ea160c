// A minimal RFC 6455 WebSocket client over node:net for tests (Node 20 has no global WebSocket):
// handshake, masked text frames out, text/close/ping frames in, and pause/resume of reading so a
// test can play a consumer that falls behind.

import { randomBytes } from 'node:crypto';
import net from 'node:net';

export interface WsClose {
  code: number;
  reason: string;
}

export interface WsClient {
  /** The next text message parsed as JSON; rejects after timeoutMs or when the socket closes first. */
  next(timeoutMs?: number): Promise<unknown>;
  send(value: unknown): void;
  /** Resolves with the close frame's code and reason (1006 when the connection ended without one). */
  readonly closed: Promise<WsClose>;
  pause(): void;
  resume(): void;
  close(): void;
}

/** One client frame: FIN set, masked as RFC 6455 requires of clients. */
function encodeFrame(opcode: number, payload: Buffer): Buffer {
  const mask = randomBytes(4);
  const len = payload.length;
  let head: Buffer;
  if (len < 126) head = Buffer.from([0x80 | opcode, 0x80 | len]);
  else if (len < 65536) head = Buffer.from([0x80 | opcode, 0x80 | 126, len >> 8, len & 255]);
  else {
    head = Buffer.alloc(10);
    head[0] = 0x80 | opcode;
    head[1] = 0x80 | 127;
    head.writeBigUInt64BE(BigInt(len), 2);
  }
  const body = Buffer.alloc(len);
  for (let i = 0; i < len; i++) body[i] = payload[i]! ^ mask[i % 4]!;
  return Buffer.concat([head, mask, body]);
}

interface Frame {
  fin: boolean;
  opcode: number;
  payload: Buffer;
}

/** Splits whole server frames (unmasked) off the front of `buf`; returns them and the rest. */
function decodeFrames(buf: Buffer): { frames: Frame[]; rest: Buffer } {
  const frames: Frame[] = [];
  for (;;) {
    if (buf.length < 2) break;
    let len = buf[1]! & 0x7f;
    let off = 2;
    if (len === 126) { if (buf.length < 4) break; len = buf.readUInt16BE(2); off = 4; }
    else if (len === 127) { if (buf.length < 10) break; len = Number(buf.readBigUInt64BE(2)); off = 10; }
    if (buf.length < off + len) break;
    frames.push({ fin: (buf[0]! & 0x80) !== 0, opcode: buf[0]! & 0x0f, payload: Buffer.from(buf.subarray(off, off + len)) });
    buf = buf.subarray(off + len);
  }
  return { frames, rest: buf };
}

/** Messages in arrival order, handed to waiting next() calls or queued. */
class Inbox {
  private readonly queue: unknown[] = [];
  private readonly waiters: { resolve(v: unknown): void; reject(e: Error): void }[] = [];
  private ended: WsClose | null = null;

  push(msg: unknown): void {
    const w = this.waiters.shift();
    if (w) w.resolve(msg); else this.queue.push(msg);
  }

  end(c: WsClose): void {
    this.ended = c;
    for (const w of this.waiters.splice(0)) w.reject(new Error(`socket closed (${c.code} ${c.reason})`));
  }

  next(timeoutMs: number): Promise<unknown> {
    if (this.queue.length) return Promise.resolve(this.queue.shift());
    if (this.ended) return Promise.reject(new Error(`socket closed (${this.ended.code} ${this.ended.reason})`));
    return new Promise((resolve, reject) => {
      const w = {
        resolve: (v: unknown) => { clearTimeout(t); resolve(v); },
        reject: (e: Error) => { clearTimeout(t); reject(e); },
      };
      const t = setTimeout(() => { this.waiters.splice(this.waiters.indexOf(w), 1); reject(new Error(`no message within ${timeoutMs} ms`)); }, timeoutMs);
      this.waiters.push(w);
    });
  }
}

export function connectWs(port: number, path: string, headers: Record<string, string> = {}): Promise<WsClient> {
  return new Promise((resolve, reject) => {
    const sock = net.connect(port, '127.0.0.1');
    const inbox = new Inbox();
    let onClose: (c: WsClose) => void = () => {};
    const closed = new Promise<WsClose>((r) => { onClose = r; });
    let closeInfo: WsClose | null = null;
    const finish = (c: WsClose): void => {
      if (closeInfo) return;
      closeInfo = c;
      onClose(c);
      inbox.end(c);
    };
    let fragments: Buffer[] = [];
    const onFrame = ({ fin, opcode, payload }: Frame): void => {
      if (opcode === 0x9) sock.write(encodeFrame(0xa, payload));
      else if (opcode === 0x8) {
        finish({ code: payload.length >= 2 ? payload.readUInt16BE(0) : 1005, reason: payload.subarray(2).toString('utf8') });
        sock.end();
      } else if (opcode === 0x1 || opcode === 0x0) {
        fragments.push(payload);
        if (!fin) return;
        inbox.push(JSON.parse(Buffer.concat(fragments).toString('utf8')));
        fragments = [];
      }
    };
    const client: WsClient = {
      next: (timeoutMs = 5000) => inbox.next(timeoutMs),
      send: (value) => void sock.write(encodeFrame(0x1, Buffer.from(JSON.stringify(value)))),
      closed,
      pause: () => void sock.pause(),
      resume: () => void sock.resume(),
      close() {
        if (!closeInfo) sock.write(encodeFrame(0x8, Buffer.from([0x03, 0xe8])));
        sock.end();
      },
    };
    const key = randomBytes(16).toString('base64');
    const extra = Object.entries(headers).map(([k, v]) => `${k}: ${v}\r\n`).join('');
    sock.on('connect', () => {
      sock.write(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: ${key}\r\nSec-WebSocket-Version: 13\r\n${extra}\r\n`);
    });
    let buf: Buffer = Buffer.alloc(0);
    let upgraded = false;
    sock.on('data', (chunk: Buffer) => {
      buf = buf.length ? Buffer.concat([buf, chunk]) : chunk;
      if (!upgraded) {
        const end = buf.indexOf('\r\n\r\n');
        if (end < 0) return;
        const head = buf.subarray(0, end).toString('latin1');
        buf = buf.subarray(end + 4);
        if (!/^HTTP\/1\.1 101/.test(head)) { reject(new Error(`no upgrade: ${head.split('\r\n')[0]}`)); sock.destroy(); return; }
        upgraded = true;
        resolve(client);
      }
      const { frames, rest } = decodeFrames(buf);
      buf = rest;
      for (const f of frames) onFrame(f);
    });
    sock.on('error', (err) => { if (!upgraded) reject(err); finish({ code: 1006, reason: err.message }); });
    sock.on('close', () => finish({ code: 1006, reason: 'connection closed without a close frame' }));
  });
}
