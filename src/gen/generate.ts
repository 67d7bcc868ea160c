// The synthetic event stream: N events over [end - days, end] across the nine sources, with a
// daily cycle, Zipf-like project popularity, and roughly-but-not-strictly chronological order
// (shuffled chunks, ~5% of events arriving up to an hour late). Deterministic for a seed.

import { Rng, Weighted } from './random.ts';
import { createContext, type GenContext, type GenEvent } from './context.ts';
import { buildProjects, type Project } from './projects.ts';
import { GEN_SOURCES, GEN_SOURCE_NAMES, splitCounts, type GenSource } from './sources.ts';
import { Timeline } from './timeline.ts';
import { LateQueue } from './late-queue.ts';
import { isoMicrosWithOffset } from './time-format.ts';

export { DEMO_PROJECTS, demoProjects, projectRefs } from './projects.ts';
export { GEN_SOURCE_NAMES } from './sources.ts';
export type { GenEvent } from './context.ts';

export interface GenerateOptions {
  /** Total events across all selected sources. */
  events: number;
  /** Number of projects, `default` included. */
  projects: number;
  /** Length of the time window, ending at endUs. */
  days: number;
  seed: number;
  /** End of the window in µs since epoch (default: now). */
  endUs?: number;
  /** Only these sources (default: all nine). */
  sources?: string[];
}

export interface GeneratedEvent {
  source: string;
  event: GenEvent;
}

/** Share of events held back and emitted up to LATE_MAX_US later than their time. */
const LATE_SHARE = 0.05;
const LATE_MAX_US = 3_600_000_000;
/** A chunk (shuffled before it is emitted) ends at this many events or this time span. */
const CHUNK_EVENTS = 256;
const CHUNK_SPAN_US = 120_000_000;
const OFFSETS_MIN = [60, 120, 330, -300, -420, 540];

export class GenerateOptionsError extends Error {}

export function checkGenerateOptions(opts: GenerateOptions): void {
  const bad = (m: string): never => { throw new GenerateOptionsError(m); };
  if (!Number.isSafeInteger(opts.events) || opts.events < 0) bad(`events must be a non-negative integer, got ${opts.events}`);
  if (!Number.isSafeInteger(opts.projects) || opts.projects < 1) bad(`projects must be a positive integer, got ${opts.projects}`);
  if (!Number.isFinite(opts.days) || opts.days <= 0) bad(`days must be a positive number, got ${opts.days}`);
  if (!Number.isFinite(opts.seed)) bad(`seed must be a finite number, got ${opts.seed}`);
  if (opts.endUs !== undefined && !Number.isFinite(opts.endUs)) bad(`endUs must be a finite number, got ${opts.endUs}`);
  for (const s of opts.sources ?? []) if (!GEN_SOURCE_NAMES.includes(s)) bad(`unknown source "${s}"; sources: ${GEN_SOURCE_NAMES.join(', ')}`);
}

/** The sources an options object selects, in the canonical order. */
export function selectedSources(opts: Pick<GenerateOptions, 'sources'>): GenSource[] {
  return opts.sources ? GEN_SOURCES.filter((s) => opts.sources!.includes(s.name)) : GEN_SOURCES.slice();
}

/** Exact per-source event counts for the options (they sum to opts.events). */
export function sourceCounts(opts: Pick<GenerateOptions, 'events' | 'sources'>): { source: string; events: number }[] {
  const sources = selectedSources(opts);
  const counts = splitCounts(opts.events, sources);
  return sources.map((s, i) => ({ source: s.name, events: counts[i]! }));
}

function timestampValue(rng: Rng, ctx: GenContext): string | number {
  const r = rng.float();
  if (r < 0.1) return ctx.clock.us; // epoch µs number
  if (r < 0.12) return ctx.clock.isoMicrosOffset();
  if (r < 0.125) return isoMicrosWithOffset(ctx.clock.us, rng.pick(OFFSETS_MIN));
  return ctx.clock.isoMicrosZ();
}

function projectPicker(source: GenSource, projects: Project[]): Weighted<Project> {
  const users = projects.filter((p, i) => i === 0 || source.uses(p));
  return new Weighted(users.map((p) => [p, p.weight] as const));
}

export function generateEvents(opts: GenerateOptions): Generator<GeneratedEvent> {
  return generateHeld(opts, (source, event) => ({ source, event }));
}

/**
 * The stream of generateEvents, each event handed to `hold` as soon as it is built (in build order) and
 * its result yielded in emission order: a caller can keep the events it holds back (the shuffled chunk,
 * late ones) as something cheaper than objects, e.g. their serialised bytes off the JS heap. `hold` must
 * not keep the event object itself for later, and must not draw from the generator's state.
 */
export function* generateHeld<T>(opts: GenerateOptions, hold: (source: string, event: GenEvent) => T): Generator<T> {
  checkGenerateOptions(opts);
  const total = opts.events;
  const endUs = Math.floor(opts.endUs ?? Date.now() * 1000);
  const startUs = endUs - Math.floor(opts.days * 86_400_000_000);
  const rng = new Rng(opts.seed);
  const projects = buildProjects(opts.projects, opts.seed, rng);
  const ctx = createContext(rng);
  const sources = selectedSources(opts);
  const remaining = splitCounts(total, sources);
  const pickers = sources.map((s) => projectPicker(s, projects));
  const timeline = new Timeline(rng, startUs, endUs, total);
  const late = new LateQueue<T>();
  const chunk: T[] = [];
  let chunkStart = 0;
  let left = total;

  for (let i = 0; i < total; i++) {
    const t = timeline.next(rng);
    // Sequential sampling without replacement: exact per-source counts, evenly interleaved.
    let r = rng.below(left);
    let s = 0;
    while (r >= remaining[s]!) { r -= remaining[s]!; s++; }
    remaining[s]!--;
    left--;
    const source = sources[s]!;
    const project = pickers[s]!.pick(rng);
    ctx.clock.set(t);
    ctx.id = rng.uuid();
    ctx.timestamp = timestampValue(rng, ctx);
    ctx.shipper = source.shipperShare > 0 && rng.float() < source.shipperShare;
    const item = hold(source.name, source.build(ctx, project));

    if (rng.float() < LATE_SHARE) late.push(t + 1 + rng.below(LATE_MAX_US), item);
    else {
      if (chunk.length === 0) chunkStart = t;
      chunk.push(item);
    }
    if (chunk.length >= CHUNK_EVENTS || t - chunkStart > CHUNK_SPAN_US) {
      while (late.peekTime() <= t) chunk.push(late.pop()!);
      rng.shuffle(chunk);
      for (let k = 0; k < chunk.length; k++) yield chunk[k]!;
      chunk.length = 0;
    }
  }
  rng.shuffle(chunk);
  for (let k = 0; k < chunk.length; k++) yield chunk[k]!;
  for (let item = late.pop(); item !== undefined; item = late.pop()) yield item;
}

/** `n` events of one source (all other options as for generateEvents), in emission order. */
export function generateSourceEvents(source: string, n: number, opts: Omit<GenerateOptions, 'events' | 'sources'>): GenEvent[] {
  const out: GenEvent[] = [];
  for (const item of generateEvents({ ...opts, events: n, sources: [source] })) out.push(item.event);
  return out;
}
