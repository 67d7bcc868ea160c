// The main thread's cost of taking an ingest body from uWS's chunks to the transform thread (issue 16):
// before (each chunk copied, joined by Buffer.concat, then copied again to post) and now (one buffer of
// the Content-Length, lent: transferred there and back). Round trips through a worker that echoes the body.
// Usage: npx tsx bench/ingest-body-copies.ts [bodyBytes=806500] [bodies=400]

import { Worker } from 'node:worker_threads';
import { BodyAssembly, declaredLength } from '../src/http/body-assembly.ts';

const ECHO = `const { parentPort } = require('node:worker_threads');
parentPort.on('message', (m) => parentPort.postMessage(m.body ? { body: m.body } : { ok: 1 }, m.body ? [m.body.buffer] : []));`;

/** uWS hands a body over in chunks of up to 512 KiB, each an ArrayBuffer neutered once its callback returns. */
function chunksOf(n: number): ArrayBuffer[] {
  const out: ArrayBuffer[] = [];
  for (let at = 0; at < n; at += 512 * 1024) out.push(new ArrayBuffer(Math.min(512 * 1024, n - at)));
  return out;
}

function oldWay(chunks: ArrayBuffer[], total: number): { post: Uint8Array; keep: Buffer } {
  const parts = chunks.map((c) => Buffer.from(new Uint8Array(c)));
  const body = parts.length === 1 ? parts[0]! : Buffer.concat(parts, total);
  return { post: new Uint8Array(body), keep: body };
}

function newWay(chunks: ArrayBuffer[], total: number): Buffer {
  const a = new BodyAssembly(declaredLength(String(total), 64 * 1024 * 1024));
  for (const c of chunks) a.add(c);
  return a.finish();
}

async function run(kind: 'before' | 'now', bytes: number, bodies: number, w: Worker): Promise<number> {
  const cpu0 = process.cpuUsage();
  for (let i = 0; i < bodies; i++) {
    const chunks = chunksOf(bytes);
    await new Promise<void>((resolve) => {
      w.once('message', () => resolve());
      if (kind === 'before') {
        const { post } = oldWay(chunks, bytes);
        w.postMessage({ copy: post }, [post.buffer as ArrayBuffer]);
      } else {
        const body = newWay(chunks, bytes);
        w.postMessage({ body: new Uint8Array(body.buffer) }, [body.buffer as ArrayBuffer]);
      }
    });
  }
  const c = process.cpuUsage(cpu0);
  return (c.user + c.system) / bodies;
}

const bytes = Number(process.argv[2] ?? 806_500), bodies = Number(process.argv[3] ?? 400);
const w = new Worker(ECHO, { eval: true });
// Chunk ArrayBuffers are made in both (uWS's own memory in the server): their cost is in both figures alike.
for (let round = 0; round < 3; round++) {
  const before = await run('before', bytes, bodies, w), now = await run('now', bytes, bodies, w);
  process.stdout.write(`round ${round}: ${bytes} B bodies, main-thread CPU µs per body: before ${before.toFixed(0)}, now ${now.toFixed(0)} (per 500-event body: ${(before / 500).toFixed(2)} → ${(now / 500).toFixed(2)} µs/event)\n`);
}
await w.terminate();
