// Main-thread CPU per ingest body for what issue 16's round-10 HTTP branch moved or reused: assembling a
// body from uWS-sized chunks into a fresh ArrayBuffer vs a reused shared slot, and the WAL's CRC-32 of it.
// Usage: npx tsx bench/ingest-body-main.ts [reps=300]

import { crc32 } from 'node:zlib';
import { BodyAssembly } from '../src/http/body-assembly.ts';
import { releaseBodySlot } from '../src/http/body-slots.ts';

const REPS = Number(process.argv[2] ?? 300);
const CHUNK = 64 * 1024;

function cpuUs(f: () => void): number {
  const t = process.cpuUsage();
  for (let i = 0; i < REPS; i++) f();
  const u = process.cpuUsage(t);
  return (u.user + u.system) / REPS;
}

for (const [name, bytes, events] of [['500 demo events', 806_500, 500], ['500 small events', 300_000, 500]] as const) {
  const chunks: ArrayBuffer[] = [];
  for (let at = 0; at < bytes; at += CHUNK) chunks.push(new Uint8Array(Math.min(CHUNK, bytes - at)).fill(at & 0xff).buffer);
  const assemble = (shared: boolean) => (): void => {
    const a = new BodyAssembly(bytes, shared);
    for (const c of chunks) a.add(c);
    const b = a.finish();
    if (shared) releaseBodySlot(b);
  };
  const body = Buffer.alloc(bytes, 7);
  const rows: string[] = [];
  for (let round = 0; round < 3; round++) {
    const fresh = cpuUs(assemble(false)), slot = cpuUs(assemble(true)), crc = cpuUs(() => { crc32(body); });
    rows.push(`fresh ${fresh.toFixed(0)} µs, slot ${slot.toFixed(0)} µs, CRC-32 ${crc.toFixed(0)} µs`);
  }
  process.stdout.write(`${name} (${bytes} B): ${rows.join(' | ')}; per event: ÷${events}\n`);
}
