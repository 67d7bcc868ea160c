// The demo generator thread's work alone, in-process (process CPU, GC helpers included): 300k demo events
// built, serialised and copied into per-source bodies, either as events held as objects (`objects`, the
// path before 2026-11-25 13:30) or as bytes in a LineArena (`arena`, src/gen/demo-worker.ts). Run it under
// npm start's semi-space: node --max-semi-space-size=4 --import tsx bench/demo-generator.ts arena|objects [events]
import { generateEvents, generateHeld, GEN_SOURCE_NAMES } from '../src/gen/generate.ts';
import { LineArena } from '../src/gen/line-arena.ts';
import { serializeEvent } from '../src/gen/serialize.ts';

const mode = process.argv[2] ?? 'arena';
const events = Number(process.argv[3] ?? 300_000);
const opts = { events, projects: 5, days: 7, seed: 42, endUs: Date.UTC(2025, 0, 15, 12, 0, 0) * 1000 };
const bodies = GEN_SOURCE_NAMES.map(() => ({ buf: Buffer.allocUnsafe(4 << 20), off: 0 }));
const names = GEN_SOURCE_NAMES.slice();

/** Appends `n` bytes (written by `write` at the body's end) and a newline; a full body starts over. */
function append(s: number, most: number, write: (buf: Buffer, at: number) => number): number {
  const b = bodies[s]!;
  if (b.off + most + 1 > b.buf.length) b.off = 0;
  const n = write(b.buf, b.off);
  b.off += n;
  b.buf[b.off++] = 10;
  return n;
}

const cpu0 = process.cpuUsage();
let bytes = 0;
if (mode === 'objects') {
  for (const { source, event } of generateEvents(opts)) {
    const line = serializeEvent(source, event);
    bytes += append(names.indexOf(source), 3 * line.length, (buf, at) => buf.write(line, at));
  }
} else {
  const arena = new LineArena();
  for (const h of generateHeld(opts, (s, e) => arena.put(serializeEvent(s, e), names.indexOf(s)))) {
    bytes += append(arena.tag(h), arena.length(h), (buf, at) => arena.take(h, buf, at));
  }
}
const c = process.cpuUsage(cpu0);
const s = (c.user + c.system) / 1e6;
process.stdout.write(`${JSON.stringify({ mode, events, cpuS: Number(s.toFixed(2)), usPerEvent: Number(((s * 1e6) / events).toFixed(2)), bytes })}\n`);
