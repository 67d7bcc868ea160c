// zstd settings over real sealed row blocks: loads each corpus (demo events, ingest-corpus's ~600 B edge
// events, small-events' ~480 B random-id edge events) into a store, takes its sealed 64 KiB blocks and the
// source's sampled dictionary, then compresses them with each setting: CPU µs per event, compressed B/event.
//   Run: [TAIL=1] npx tsx bench/block-codec-micro.ts [rounds] ['name|=exact name|...'] [demo,small,random]

import { createRequire } from 'node:module';
import { Store, defaultStoreConfig } from '../src/store/store.ts';
import type { SegmentSet } from '../src/store/segment-set.ts';
import type { BlockRows } from '../src/store/row-blocks.ts';
import { demoBodies, smallEdgeBodies, type Body } from './ingest-corpus.ts';
import { SmallEventText } from './small-event-text.ts';
import { END_US } from './data.ts';

/** One corpus's sealed blocks (raw bytes), the dictionary its codec sampled, and events they hold. */
interface Corpus { name: string; blocks: Buffer[]; dict: Buffer | null; events: number; rows: Buffer[] }

/** A setting: zstd parameters by number (zstd.h's ZSTD_cParameter, experimental ones included). */
interface Setting {
  name: string;
  params: [number, number][];
  dict?: (d: Buffer, c?: Corpus) => Buffer | null;
  /** Compress with ZSTD_compress_usingDict at this level, the block copied right after the dictionary (a contiguous prefix). */
  prefixLevel?: number;
}

/** zstd-napi's raw binding (CommonJS; its enums are plain objects at run time). */
const binding = createRequire(import.meta.url)('zstd-napi/binding') as typeof import('zstd-napi/binding');
const P = binding.CParameter, S = binding.Strategy;
const lvl = (l: number): [number, number] => [P.compressionLevel, l];

export function blocksOf(bodies: Body[], name: string): Corpus {
  const store = new Store({ ...defaultStoreConfig({}), maxRows: 50_000_000, maxBytes: 64 * 2 ** 30, retentionUs: 1e18 });
  const nowUs = END_US;
  let events = 0;
  for (const b of bodies) {
    const x = store.source(b.source)!.ingestBytes(b.bytes, false, nowUs);
    if (typeof x === 'string') throw new Error(x);
  }
  const blocks: Buffer[] = [];
  const rows: Buffer[] = [];
  let dict: Buffer | null = null;
  for (const src of new Set(bodies.map((b) => b.source))) {
    const set = (store.source(src) as unknown as { rows: SegmentSet }).rows;
    for (const seg of set.segments) {
      for (const b of (seg.rows as BlockRows).blocks) {
        // Blocks made before the source sampled its dictionary are left out (the dictionary is per source).
        if (b.raw === null || b.codec.dict === null) continue;
        if (dict === null && src === bodies[0]!.source) dict = b.codec.dict;
        if (b.codec.dict !== dict) continue;
        blocks.push(Buffer.from(b.raw));
        for (let k = 0; k < b.rowCount; k++) rows.push(b.raw.subarray(b.starts[k]!, b.end(k)));
        events += b.rowCount;
      }
    }
  }
  return { name, blocks, dict, events, rows };
}

export function smallRandomBodies(events: number): Body[] {
  const g = new SmallEventText(11, events);
  const out: Body[] = [];
  for (let i = 0; i < events; i += 500) {
    const l: string[] = [];
    for (let k = i; k < Math.min(events, i + 500); k++) l.push(g.line(k));
    out.push({ source: 'edge.logs.prod', events: l.length, bytes: Buffer.from(`{"batch":[${l.join(',')}]}`) });
  }
  return out;
}

function cpuUs(f: () => void): number {
  const t = process.cpuUsage();
  f();
  const d = process.cpuUsage(t);
  return d.user + d.system;
}

function measure(c: Corpus, s: Setting, rounds: number): string {
  const cctx = new binding.CCtx();
  for (const [k, v] of s.params) cctx.setParameter(k, v);
  const dict = s.dict ? s.dict(c.dict!, c) : c.dict;
  if (dict) cctx.loadDictionary(dict);
  const dst = Buffer.allocUnsafe(binding.compressBound(256 * 1024));
  const dl = dict?.length ?? 0;
  const stage = Buffer.allocUnsafe(dl + 256 * 1024);
  if (dict) dict.copy(stage);
  const pdict = stage.subarray(0, dl);
  const one = s.prefixLevel === undefined
    ? (b: Buffer): number => cctx.compress2(dst, b)
    : (b: Buffer): number => { b.copy(stage, dl); return cctx.compressUsingDict(dst, stage.subarray(dl, dl + b.length), pdict, s.prefixLevel!); };
  const frames: Buffer[] = [];
  let comp = 0, best = Infinity;
  for (let r = 0; r < rounds; r++) {
    comp = 0;
    const keep = r === 0;
    best = Math.min(best, cpuUs(() => {
      for (const b of c.blocks) {
        const n = one(b);
        comp += n;
        if (keep) frames.push(Buffer.from(dst.subarray(0, n)));
      }
    }));
  }
  const dctx = new binding.DCtx();
  if (dict) dctx.loadDictionary(dict);
  const out = Buffer.allocUnsafe(256 * 1024);
  let dec = Infinity;
  for (let r = 0; r < rounds; r++) dec = Math.min(dec, cpuUs(() => { for (const f of frames) dctx.decompress(out, f); }));
  // Round trip of the first frames (a setting that breaks frames must not look good).
  for (let i = 0; i < Math.min(4, frames.length); i++) {
    const n = dctx.decompress(out, frames[i]!);
    if (!out.subarray(0, n).equals(c.blocks[i]!)) throw new Error(`${s.name}: round trip differs`);
  }
  const raw = c.blocks.reduce((a, b) => a + b.length, 0);
  return `| ${c.name} | ${s.name} | ${(best / c.events).toFixed(3)} | ${(raw / best).toFixed(0)} | ${(comp / raw).toFixed(4)} | ${(comp / c.events).toFixed(1)} | ${(dec / frames.length).toFixed(1)} |`;
}

export const SETTINGS: Setting[] = [
  { name: 'level 1', params: [lvl(1)] },
  { name: 'level 3 lazy s3 m6 (small today)', params: [lvl(3), [P.strategy, S.lazy], [P.searchLog, 3], [P.minMatch, 6]] },
  { name: 'level 3', params: [lvl(3)] },
  { name: 'fast m7', params: [lvl(1), [P.minMatch, 7]] },
  { name: 'fast m6 h15', params: [lvl(1), [P.minMatch, 6], [P.hashLog, 15]] },
  { name: 'level -1', params: [lvl(-1)] },
  { name: 'dfast m6', params: [lvl(2), [P.minMatch, 6]] },
  { name: 'greedy s1 m6', params: [lvl(3), [P.strategy, S.greedy], [P.searchLog, 1], [P.minMatch, 6]] },
  { name: 'greedy s2 m6', params: [lvl(3), [P.strategy, S.greedy], [P.searchLog, 2], [P.minMatch, 6]] },
  { name: 'lazy s2 m6', params: [lvl(3), [P.strategy, S.lazy], [P.searchLog, 2], [P.minMatch, 6]] },
  { name: 'lazy s3 m6 attach', params: [lvl(3), [P.strategy, S.lazy], [P.searchLog, 3], [P.minMatch, 6], [1001, 1]] },
  { name: 'lazy s3 m6 dds', params: [lvl(3), [P.strategy, S.lazy], [P.searchLog, 3], [P.minMatch, 6], [1005, 1]] },
  ...[-1, 1, 2, 3, 4, 5, 6].map((l) => ({ name: `prefix level ${l}`, params: [], prefixLevel: l })),
  // ZSTD_c_literalCompressionMode (experimental 1002): 1 = Huffman literals even where targetLength > 0 turns them off.
  ...[1, 2, 3, 4, 6, 8].map((t) => ({ name: `fast t${t} huf`, params: [lvl(1), [P.targetLength, t], [1002, 1]] as [number, number][] })),
  ...[2, 4].map((t) => ({ name: `fast t${t} m7 huf`, params: [lvl(1), [P.targetLength, t], [P.minMatch, 7], [1002, 1]] as [number, number][] })),
  ...grid(),
  ...fastGrid(),
];

/** Fast-strategy settings: table sizes, minimum match, dictionary size (its newest bytes kept). */
function fastGrid(): Setting[] {
  const out: Setting[] = [];
  for (const hl of [12, 13, 14, 16]) for (const m of [5, 6, 7]) out.push({ name: `f h${hl} m${m}`, params: [lvl(1), [P.hashLog, hl], [P.minMatch, m]] });
  for (const kb of [0, 16, 32]) out.push({ name: `f m7 dict ${kb}K`, params: [lvl(1), [P.minMatch, 7]], dict: (d) => kb === 0 ? null : d.subarray(d.length - kb * 1024) });
  out.push({ name: 'f m7 attach', params: [lvl(1), [P.minMatch, 7], [1001, 1]] });
  for (const t of [2, 3]) out.push({ name: `f m7 t${t} huf`, params: [lvl(1), [P.minMatch, 7], [P.targetLength, t], [1002, 1]] });
  for (const kb of [64, 128, 256]) out.push({ name: `f m7 sampled ${kb}K`, params: [lvl(1), [P.minMatch, 7]], dict: sampledOf(kb) });
  out.push({ name: 'f m7 w17', params: [lvl(1), [P.minMatch, 7], [P.windowLog, 17]] });
  return out;
}

/** Lazy-family settings around the small-row tuning (ZSTD_c_useRowMatchFinder is experimental 1011: 1 on, 2 off). */
function grid(): Setting[] {
  const out: Setting[] = [];
  const st = { greedy: S.greedy, lazy: S.lazy, lazy2: S.lazy2 } as const;
  for (const [sn, sv] of Object.entries(st)) {
    for (const sl of [1, 2, 3]) {
      for (const row of [1, 2]) {
        for (const hl of [15, 17]) {
          out.push({ name: `g ${sn} s${sl} m6 row${row} h${hl}`, params: [lvl(3), [P.strategy, sv], [P.searchLog, sl], [P.minMatch, 6], [1011, row], [P.hashLog, hl], [P.chainLog, hl - 1], [P.windowLog, 17]] });
        }
      }
    }
  }
  return out;
}

/**
 * A dictionary of `kb` KiB sampled as block-codec.ts samples (whole rows, evenly spread, cut at the size) from
 * the first quarter of the corpus's rows in block order; with TAIL=1 only the other three quarters are measured.
 */
function sampledOf(kb: number): (d: Buffer, c?: Corpus) => Buffer {
  return (_d, c) => {
    // Rows of the first quarter only (a seal's sample precedes the blocks it compresses): see tailOf.
    const rows = c!.rows.slice(0, Math.floor(c!.rows.length / 4)), parts: Buffer[] = [];
    let bytes = 0;
    const step = Math.max(1, Math.floor(rows.length / (512 * (kb / 64)) / 4));
    for (let i = 0; i < rows.length && bytes < kb * 1024; i += step) { parts.push(rows[i]!); bytes += rows[i]!.length; }
    return Buffer.concat(parts).subarray(0, kb * 1024);
  };
}

/** The corpus with only its last three quarters of blocks measured (sampledOf samples the first quarter's rows). */
function tailOf(c: Corpus): Corpus {
  const blocks = c.blocks.slice(Math.floor(c.blocks.length / 4));
  const share = blocks.reduce((a, b) => a + b.length, 0) / c.blocks.reduce((a, b) => a + b.length, 0);
  return { ...c, name: `${c.name} tail`, blocks, events: Math.round(c.events * share) };
}

function main(): void {
  const rounds = Number(process.argv[2] ?? 3);
  const filter = process.argv[3] ?? '';
  const only = (process.argv[4] ?? 'demo,small,random').split(',');
  const corpora = [
    only.includes('demo') ? blocksOf(demoBodies(20_000, END_US), 'demo') : null,
    only.includes('small') ? blocksOf(smallEdgeBodies(60_000, END_US), 'small') : null,
    only.includes('random') ? blocksOf(smallRandomBodies(120_000), 'random') : null,
  ].filter((c): c is Corpus => c !== null).flatMap((c) => (process.env.TAIL ? [tailOf(c)] : [c]));
  for (const c of corpora) process.stdout.write(`${c.name}: ${c.blocks.length} blocks, ${c.events} events, dict ${c.dict?.length ?? 0} B\n`);
  process.stdout.write('| corpus | setting | CPU µs/event | raw MB/s | ÷ raw | B/event | decode µs/block |\n|---|---|---|---|---|---|---|\n');
  const names = filter.split('|');
  for (const s of SETTINGS.filter((x) => names.some((n) => (n.startsWith('=') ? x.name === n.slice(1) : x.name.includes(n))))) for (const c of corpora) process.stdout.write(`${measure(c, s, rounds)}\n`);
}

if (process.argv[1]?.endsWith("block-codec-micro.ts")) main();
