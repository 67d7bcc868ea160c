// Issue 15's "edge events held in one process": ~480 B edge events (bench/small-events.ts's shape, as
// text: bench/small-event-text.ts) generated here and streamed to a child that stores them (the byte path) until it holds `target` or
// memory runs short; never one big array or file.   Run: npx tsx bench/events-held.ts [target]

import { spawn } from 'node:child_process';
import { SmallEventText } from './small-event-text.ts';
import { loadAverage } from './proc-tree.ts';
import { progress } from './stats.ts';
import { SEMI_SPACE_MB } from '../src/cli/node-flags.ts';

export interface HeldFigures {
  target: number;
  held: number;
  evicted: number;
  ndjsonBytes: number;
  rss: number;
  rssGrowth: number;
  counted: number;
  /** RINGQL_MAX_MEMORY the child's store ran with (the machine's available memory less the reserve). */
  budget: string;
  stopped: 'target' | 'memory' | 'input';
  loadMs: number;
  load: { start: string; end: string };
}

/** Writes events to `out` until it closes or `limit` were written, with backpressure. */
async function generate(out: NodeJS.WritableStream, limit: number): Promise<void> {
  const gen = new SmallEventText(31, limit);
  let closed = false;
  out.on('error', () => { closed = true; });
  out.on('close', () => { closed = true; });
  for (let i = 0; i < limit && !closed;) {
    const lines: string[] = [];
    for (const end = Math.min(limit, i + 2000); i < end; i++) lines.push(gen.line(i));
    if (out.write(lines.join('\n') + '\n')) continue;
    await new Promise<void>((res) => {
      const go = (): void => { out.off('drain', go); out.off('close', go); res(); };
      out.on('drain', go);
      out.on('close', go);
    });
  }
  if (!closed) out.end();
}

/** Events held by one process: the target (30M in the issue) or as many as memory allows, keeping `reserveMiB` free. */
export async function eventsHeld(target: number, reserveMiB = 2048): Promise<HeldFigures> {
  const load = loadAverage();
  const child = spawn(process.execPath, ['--expose-gc', '--max-old-space-size=20480', `--max-semi-space-size=${SEMI_SPACE_MB}`, '--import', 'tsx', 'bench/held-child.ts', String(target), String(reserveMiB)], {
    cwd: new URL('..', import.meta.url).pathname, stdio: ['pipe', 'pipe', 'inherit'],
  });
  let out = '';
  child.stdout!.on('data', (d: Buffer) => { out += d.toString(); });
  const exited = new Promise<number | null>((res) => child.once('exit', res));
  // A little over the target: the child stops at the first body that reaches it.
  await generate(child.stdin!, Math.ceil(target * 1.01) + 10_000);
  const code = await exited;
  const last = out.trim().split('\n').pop() ?? '';
  if (code !== 0) throw new Error(`events held: the child exited ${code}: ${last.slice(0, 300)}`);
  return { target, ...(JSON.parse(last) as Omit<HeldFigures, 'target' | 'load'>), load: { start: load, end: loadAverage() } };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const f = await eventsHeld(Number(process.argv[2] ?? 30_000_000));
  progress(`held ${f.held.toLocaleString()} (${f.stopped}), RSS ${(f.rss / 2 ** 30).toFixed(2)} GiB`);
  process.stdout.write(JSON.stringify(f) + '\n');
}
