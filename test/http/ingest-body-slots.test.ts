// Large ingest bodies over a real server are read into shared body slots (body-slots.ts): while a handler
// still holds its body no other request's bytes land in it, and the slot comes back once the handler
// settled, answered or failed; gzip bodies and other routes keep their own memory.

import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bodySlotStats } from '../../src/http/body-slots.ts';
import { RingqlError } from '../../src/core/errors.ts';
import { bearer, fakeService, startTestServer, TOKENS, type FakeService, type TestServer } from './helpers.ts';

interface Held { body: Buffer; copy: Buffer; release: () => void }

let svc: FakeService;
let server: TestServer;
const held: Held[] = [];
let arrived: () => void = () => {};

beforeAll(async () => {
  svc = fakeService();
  // The byte path of a real service: the body is read after an await (as the transform thread does).
  svc.ingestBody = async (source, body, ndjson, parse) => {
    const copy = Buffer.from(body);
    await new Promise<void>((release) => { held.push({ body, copy, release }); arrived(); });
    if (!body.equals(copy)) throw new Error('the body changed while its handler held it');
    if (source === 'fail') throw new RingqlError('invalid_events', 'refused');
    return { stored: parse(body).length, dropped: 0 };
  };
  server = await startTestServer(svc, { maxBodyBytes: 4 << 20, maxDecompressedBytes: 8 << 20 });
});
afterAll(() => server.close());

/** A JSON body of `n` events whose bytes differ from every other `seed`'s. */
function body(seed: number, n = 400): Buffer {
  const events = Array.from({ length: n }, (_, i) => ({ seed, i, pad: String.fromCharCode(97 + ((seed + i) % 26)).repeat(300) }));
  return Buffer.from(JSON.stringify({ batch: events }));
}

const post = (b: Buffer, source = 'edge.logs.prod', extra: Record<string, string> = {}) =>
  fetch(`${server.url}/api/logs?source_name=${source}`, { method: 'POST', headers: { ...bearer(TOKENS.ingest), 'Content-Type': 'application/json', ...extra }, body: b });

async function untilHeld(n: number): Promise<void> {
  while (held.length < n) await new Promise<void>((r) => { arrived = r; });
}

describe('ingest bodies in shared slots', () => {
  it('bodies held at once each have their own slot, unchanged by the others; slots come back after the answers and are reused', async () => {
    const before = bodySlotStats();
    for (let round = 0; round < 2; round++) {
      const bodies = Array.from({ length: 6 }, (_, k) => body(round * 10 + k));
      const answers = bodies.map((b) => post(b));
      await untilHeld(6);
      const slots = held.map((h) => h.body.buffer);
      for (const s of slots) expect(s).toBeInstanceOf(SharedArrayBuffer);
      expect(new Set(slots).size).toBe(6);
      expect(bodySlotStats().lent).toBe(before.lent + 6);
      for (const h of held.splice(0)) h.release();
      for (const a of answers) expect((await a).status).toBe(200);
      expect(bodySlotStats().lent).toBe(before.lent);
    }
    expect(bodySlotStats().reused).toBeGreaterThanOrEqual(before.reused + 6);
  });

  it('a handler that fails gives its slot back too', async () => {
    const before = bodySlotStats();
    const a = post(body(99), 'fail');
    await untilHeld(1);
    expect(bodySlotStats().lent).toBe(before.lent + 1);
    held.splice(0)[0]!.release();
    expect((await a).status).toBe(400);
    expect(bodySlotStats().lent).toBe(before.lent);
  });

  it('a gzip body is inflated into memory of its own (no slot is taken for it)', async () => {
    const before = bodySlotStats();
    const raw = body(7);
    const a = post(gzipSync(raw), 'edge.logs.prod', { 'Content-Encoding': 'gzip' });
    await untilHeld(1);
    const h = held.splice(0)[0]!;
    expect(h.body.buffer).not.toBeInstanceOf(SharedArrayBuffer);
    expect(h.body.equals(raw)).toBe(true);
    expect(bodySlotStats().lent).toBe(before.lent);
    h.release();
    expect((await a).status).toBe(200);
  });
});
