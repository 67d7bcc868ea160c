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

export function connectWs(port: number, path: string, headers: Record<string, string> = {}): Promise<WsClient> {
  return new Promise((resolve, reject) => {
    const sock = net.connect(port, '127.0.0.1');
    const key = randomBytes(16).toString('base64');
    const extra = Object.entries(headers).map(([k, v]) => `${k}: ${v}\r\n`).join('');
    sock.on('connect', () => {
      sock.write(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: ${key}\r\nSec-WebSocket-Version: 13\r\n${extra}\r\n`);
    });
    let buf: Buffer = Buffer.alloc(0);
    let upgraded = false;
    const inbox: unknown[] = [];
    const waiters: ((v: unknown) => void)[] = [];
    let closeInfo: WsClose | null = null;
    let onClose: (c: WsClose) => void = () => {};
    const closed = new Promise<WsClose>((r) => { onClose = r; });
    const finish = (c: WsClose): void => {
      if (closeInfo) return;
      closeInfo = c;
      onClose(c);
      for (const w of waiters.splice(0)) w(undefined);
    };
    const frame = (opcode: number, payload: Buffer): Buffer => {
      const mask = randomBytes(4);
      const len = payload.length;
      const head = len < 126 ? Buffer.from([0x80 | opcode, 0x80 | len]) : len < 65536 ? Buffer.from([0x80 | opcode, 0x80 | 126, len >> 8, len & 255]) : Buffer.concat([Buffer.from([0x80 | opcode, 0x80 | 127]), u64(len)]);
      const body = Buffer.from(payload.map((b, i) => b ^ mask[i % 4]!));
      return Buffer.concat([head, mask, body]);
    };
    let fragments: Buffer[] = [];
    const onFrame = (opcode: number, fin: boolean, payload: Buffer): void => {
      if (opcode === 0x9) { sock.write(frame(0xA, payload)); return; }
      if (opcode === 0x8) {
        finish({ code: payload.length >= 2 ? payload.readUInt16BE(0) : 1005, reason: payload.subarray(2).toString('utf8') });
        sock.end();
        return;
      }
      if (opcode === 0x1 || opcode === 0x0) {
        fragments.push(payload);
        if (!fin) return;
        const msg: unknown = JSON.parse(Buffer.concat(fragments).toString('utf8'));
        fragments = [];
        const w = waiters.shift();
        if (w) w(msg); else inbox.push(msg);
      }
    };
    const parse = (): void => {
      for (;;) {
        if (buf.length < 2) return;
        const fin = (buf[0]! & 0x80) !== 0;
        const opcode = buf[0]! & 0x0f;
        let len = buf[1]! & 0x7f;
        let off = 2;
        if (len === 126) { if (buf.length < 4) return; len = buf.readUInt16BE(2); off = 4; }
        else if (len === 127) { if (buf.length < 10) return; len = Number(buf.readBigUInt64BE(2)); off = 10; }
        if (buf.length < off + len) return;
        const payload = buf.subarray(off, off + len);
        buf = buf.subarray(off + len);
        onFrame(opcode, fin, Buffer.from(payload));
      }
    };
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
      parse();
    });
    sock.on('error', (err) => { if (!upgraded) reject(err); finish({ code: 1006, reason: err.message }); });
    sock.on('close', () => finish({ code: 1006, reason: 'connection closed without a close frame' }));
    const client: WsClient = {
      next(timeoutMs = 5000) {
        if (inbox.length) return Promise.resolve(inbox.shift());
        if (closeInfo) return Promise.reject(new Error(`socket closed (${closeInfo.code} ${closeInfo.reason})`));
        return new Promise((res, rej) => {
          const t = setTimeout(() => { waiters.splice(waiters.indexOf(w), 1); rej(new Error(`no message within ${timeoutMs} ms`)); }, timeoutMs);
          const w = (v: unknown): void => {
            clearTimeout(t);
            if (closeInfo && v === undefined) rej(new Error(`socket closed (${closeInfo.code} ${closeInfo.reason})`)); else res(v);
          };
          waiters.push(w);
        });
      },
      send(value) { sock.write(frame(0x1, Buffer.from(JSON.stringify(value)))); },
      closed,
      pause() { sock.pause(); },
      resume() { sock.resume(); },
      close() {
        if (!closeInfo) sock.write(frame(0x8, Buffer.from([0x03, 0xe8])));
        sock.end();
      },
    };
  });
}

function u64(n: number): Buffer {
  const b = Buffer.alloc(8);
  b.writeBigUInt64BE(BigInt(n));
  return b;
}
