// Where the demo generator thread's serialisation time goes: CPU µs per event of serializeEvent + its UTF-8
// write, per source, and for standard edge events the split into joining the line's ~130 pieces, flattening
// that string, and writing the flat string. Usage: node --max-semi-space-size=4 --import tsx bench/demo-gen-costs.ts
import { generateEvents } from '../src/gen/generate.ts';
import { serializeEvent } from '../src/gen/serialize.ts';
import { edgeEventJson } from '../src/gen/write-edge-line.ts';
import type { EdgeEvent } from '../src/gen/edge-event.ts';
import type { GenEvent } from '../src/gen/context.ts';

const events = Number(process.argv[2] ?? 100_000);
const cpuMs = (): number => { const c = process.cpuUsage(); return (c.user + c.system) / 1000; };
const buf = Buffer.allocUnsafe(1 << 20);
const bySource = new Map<string, GenEvent[]>();
for (const { source, event } of generateEvents({ events, projects: 5, days: 7, seed: 42, endUs: Date.UTC(2025, 10, 20) * 1000 })) {
  let list = bySource.get(source);
  if (!list) bySource.set(source, (list = []));
  list.push(event);
}

/** CPU µs per item of `f` over `items`, best of 3 rounds. */
function perItem<T>(items: T[], f: (x: T) => number): number {
  let best = Infinity;
  let sink = 0;
  for (let r = 0; r < 3; r++) {
    const t = cpuMs();
    for (const x of items) sink += f(x);
    best = Math.min(best, ((cpuMs() - t) * 1000) / items.length);
  }
  if (sink === -1) process.stdout.write('');
  return best;
}

process.stdout.write('| source | events | bytes/event | serializeEvent + UTF-8 write, CPU µs/event | CPU ms for all of them |\n|---|---|---|---|---|\n');
for (const [source, list] of bySource) {
  const bytes = list.reduce((n, e) => n + Buffer.byteLength(serializeEvent(source, e)), 0) / list.length;
  const us = perItem(list, (e) => buf.write(serializeEvent(source, e), 0));
  process.stdout.write(`| ${source} | ${list.length} | ${bytes.toFixed(0)} | ${us.toFixed(2)} | ${((us * list.length) / 1000).toFixed(0)} |\n`);
}
const edge = (bySource.get('edge.logs.prod') ?? []).map((e) => e as unknown as EdgeEvent).filter((e) => edgeEventJson(e) !== null);
const join = perItem(edge, (e) => edgeEventJson(e)!.length);
const flatten = perItem(edge, (e) => edgeEventJson(e)!.charCodeAt(100));
const write = perItem(edge, (e) => buf.write(edgeEventJson(e)!, 0));
const flat = edge.map((e) => JSON.parse(JSON.stringify(edgeEventJson(e))) as string);
const flatWrite = perItem(flat, (s) => buf.write(s, 0));
process.stdout.write(`\nstandard edge events (${edge.length}), CPU µs/event: join the pieces ${join.toFixed(2)}, + flatten ${flatten.toFixed(2)}, + write (flattens) ${write.toFixed(2)}; write of an already flat line ${flatWrite.toFixed(2)}\n`);
