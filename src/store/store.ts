// The Store: one SourceStore per source of SPEC §1, the store configuration read from the environment
// (RINGQL_RETENTION_HOURS, RINGQL_MAX_ROWS_PER_SOURCE, RINGQL_MAX_BYTES_PER_SOURCE, RINGQL_MAX_MEMORY,
// RINGQL_SOURCE_LIMITS) and the process memory budget, enforced by evicting the oldest data first.
//
// Memory model (storage v2): the open segment of each source holds its newest rows uncompressed in a
// growable off-heap slab; sealing sorts them by (project, ts) and compresses them with zstd in blocks
// of ~64 KiB raw, using a raw-content dictionary of 64 KiB sampled from the source's first big seal
// (zstd-napi has no dictionary training; sampled rows measured 0.145x of NDJSON against 0.19x plain
// over 64 KiB blocks, and plain 1 MiB blocks 0.12x but ~1 ms to decode one block, 20x a 64 KiB one).
// Timestamps stay Float64 (binary searched); sequence numbers (as deltas), projects and hot ids are
// Uint32 (one array kind keeps scan loops monomorphic), shapes and block tables the narrowest kind. Decoded blocks live in one LRU (block-cache.ts, 32 MiB).
// Sealing itself only sorts and copies rows into raw blocks (as a v1 seal did: p50 ~46 ms for 4096
// demo events on this loaded 2-core machine, v1 ~72 ms in the same run); block-compressor.ts then
// compresses them in ~2 ms slices between requests (compressing inside the seal made it ~9x slower).
// Merges reference full blocks, so a row is compressed once. RSS sits above the counted bytes by the
// V8 heaps, the transform thread and what glibc keeps of freed arrays; with countProcess (the server)
// the budget bounds the RSS: the store is held to the budget less that overhead (process-overhead.ts).

import type { SourceLimit } from '../core/memory-env.ts';
import { totalmem } from 'node:os';
import { limitsConfig, storeSettings, type Limits, type StoreSettings } from '../core/config.ts';
import type { StoreConfig } from './types.ts';
import { SOURCES, sourceByNameOrId } from './sources.ts';
import { SourceStore } from './source-store.ts';
import { DEFAULT_HOT_PATHS } from './hot-paths.ts';
import { DEFAULT_BLOCK_CACHE_BYTES, blockCacheStats, setBlockCacheBytes } from './block-cache.ts';
import { arenaStats } from './frame-arena.ts';
import { ProcessOverhead, type OverheadSource } from './process-overhead.ts';

/**
 * Default byte capacity per source: half of the machine's memory shared by the nine sources. Rows
 * live in off-heap slabs (about 1.05 bytes resident per stored byte with their indexes), so physical
 * memory, not V8's heap limit, is what a full store must fit.
 */
export function defaultBytesPerSource(): number {
  return Math.floor((totalmem() * 0.5) / SOURCES.length);
}

/** Resident bytes a store may reach at full capacity (rows, row indexes, slack), for the start-up check. */
export function fullStoreBytes(config: StoreConfig): number {
  return config.maxBytes * SOURCES.length * 1.1;
}

/** Store settings from the environment (core/config.ts), with the defaults of SPEC §9. Throws on a malformed value. */
export function defaultStoreConfig(env: Record<string, string | undefined> = process.env): StoreConfig {
  return storeConfigFrom(storeSettings(env), limitsConfig(env));
}

/** The store's configuration from the parsed settings and limits. */
export function storeConfigFrom(settings: StoreSettings, limits: Limits): StoreConfig {
  return {
    retentionUs: settings.retentionUs,
    maxRows: settings.maxRows,
    maxBytes: settings.maxBytesPerSource ?? defaultBytesPerSource(),
    segmentRows: 4096,
    maxEventDepth: limits.maxEventDepth,
    maxStringBytes: limits.maxFieldBytes,
    maxFieldsPerSource: limits.maxFieldsPerSource,
    maxMemory: settings.maxMemory,
    sourceLimits: settings.sourceLimits,
  };
}

export interface MemoryStats {
  /** The budget (RINGQL_MAX_MEMORY) and what counts against it now, in bytes. */
  max_bytes: number;
  used_bytes: number;
  sources: Record<string, number>;
  decoded_block_cache: number;
  result_cache: number;
  /** Bytes a running checkpoint holds outside the store (parts being written, segments it keeps after the store let them go). */
  checkpoint_in_flight: number;
  /** Events evicted to keep within the budget since start. */
  evicted_for_budget: number;
  /** When the budget covers the whole process (countProcess): its RSS now, what it holds outside the counted bytes, and what the store may hold. */
  process?: ProcessMemory;
}

export interface ProcessMemory {
  rss_bytes: number;
  /** RSS − used_bytes, smoothed (what the enforcement subtracts from the budget). */
  overhead_bytes: number;
  /** What used_bytes is held to: max_bytes − overhead_bytes, at least a quarter of max_bytes. */
  store_target_bytes: number;
  /** The main thread's V8 heap, and off-heap memory V8 knows of (Buffers, typed arrays), now. */
  v8_heap_total_bytes: number;
  v8_heap_used_bytes: number;
  external_bytes: number;
}

export class Store {
  private readonly byName = new Map<string, SourceStore>();
  private readonly list: SourceStore[];

  /** `hotPaths` per source name: record paths kept as dictionary columns (tests pass {} to compare). */
  /** Bytes held outside the store that count against the budget (the result cache's, once wired). */
  private external: () => number = () => 0;
  private checkpointHeld: () => number = () => 0;
  private budgetEvicted = 0;
  private enforcing = false;
  /** Set by countProcess: the budget then bounds the process's RSS, not only the counted bytes. */
  private overhead: ProcessOverhead | null = null;

  /** `hotPaths` per source name: record paths kept as dictionary columns (tests pass {} to compare). */
  constructor(readonly config: StoreConfig, hotPaths: Readonly<Record<string, readonly string[][]>> = DEFAULT_HOT_PATHS) {
    const limits = config.sourceLimits ?? new Map<string, SourceLimit>();
    for (const name of limits.keys()) {
      if (!SOURCES.some((d) => d.name === name)) throw new Error(`RINGQL_SOURCE_LIMITS names "${name}", which is not a source; sources: ${SOURCES.map((d) => d.name).join(', ')}`);
    }
    this.list = SOURCES.map((def) => {
      const lim = limits.get(def.name);
      const cfg = lim === undefined ? config : { ...config, retentionUs: lim.retentionUs ?? config.retentionUs, maxBytes: lim.maxBytes ?? config.maxBytes };
      return new SourceStore(def, cfg, (hotPaths[def.name] ?? []).map((p) => [...p]));
    });
    // The decoded-block cache is part of the budget: at most 1/32 of it (32 MiB from a 1 GiB budget up).
    if (config.blockCacheBytes !== undefined) setBlockCacheBytes(config.blockCacheBytes);
    else if (config.maxMemory !== undefined) setBlockCacheBytes(Math.min(DEFAULT_BLOCK_CACHE_BYTES, Math.floor(config.maxMemory / 32)));
    for (const s of this.list) {
      this.byName.set(s.def.name, s);
      s.afterIngest = () => this.enforceMemory();
    }
  }

  /** Counts `bytes()` (e.g. the result cache's size) against the memory budget too. */
  countExternal(bytes: () => number): void {
    this.external = bytes;
  }

  /** Counts `bytes()` (what a running checkpoint holds outside the store: Checkpointer.heldBytes) against the budget too. */
  countCheckpoint(bytes: () => number): void {
    this.checkpointHeld = bytes;
  }

  /**
   * Makes the budget bound the whole process: the store is then held to the budget less what the process
   * holds besides it (RSS − counted, sampled and smoothed by ProcessOverhead), never below a quarter of it.
   */
  countProcess(log: (line: string) => void, src?: OverheadSource): void {
    if (this.config.maxMemory !== undefined) this.overhead = new ProcessOverhead(this.config.maxMemory, log, src);
  }

  /** What the budget counts: every source's resident bytes, the decoded-block cache and external bytes. */
  memoryStats(): MemoryStats {
    const sources: Record<string, number> = {};
    let used = 0;
    for (const s of this.list) { const b = s.residentBytes(); sources[s.def.name] = b; used += b; }
    const decoded = blockCacheStats().bytes, ext = this.external(), ck = this.checkpointHeld();
    const stats: MemoryStats = { max_bytes: this.config.maxMemory ?? Infinity, used_bytes: used + decoded + ext + ck + arenaStats().slackBytes, sources, decoded_block_cache: decoded, result_cache: ext,
      checkpoint_in_flight: ck, evicted_for_budget: this.budgetEvicted };
    if (this.overhead !== null) stats.process = this.processMemory();
    return stats;
  }

  private processMemory(): ProcessMemory {
    const o = this.overhead!.figures(), m = process.memoryUsage();
    return { rss_bytes: m.rss, overhead_bytes: o.overhead, store_target_bytes: this.overhead!.storeTarget(),
      v8_heap_total_bytes: m.heapTotal, v8_heap_used_bytes: m.heapUsed, external_bytes: m.external };
  }

  /** Bytes the budget counts now (memoryStats().used_bytes without the breakdown). */
  private countedBytes(): number {
    // The chunks row blocks are packed into count whole until freed: their dead and unfilled bytes too.
    let used = blockCacheStats().bytes + this.external() + this.checkpointHeld() + arenaStats().slackBytes;
    for (const s of this.list) used += s.residentBytes();
    return used;
  }

  /** What the counted bytes are held to: the budget, less the process's overhead when it is counted. */
  private countedLimit(max: number): number {
    if (this.overhead === null) return max;
    this.overhead.sample(this.countedBytes());
    return this.overhead.storeTarget();
  }

  /**
   * While the budget (less the process's overhead, when counted) is exceeded, evicts the oldest sealed
   * data across sources, one segment at a time.
   * Sources with their own byte limit (RINGQL_SOURCE_LIMITS) are bounded by it and evicted for the
   * budget only when the other sources hold nothing more to evict.
   */
  enforceMemory(): void {
    const max = this.config.maxMemory;
    if (max === undefined || this.enforcing) return;
    this.enforcing = true;
    try {
      const limited = this.config.sourceLimits ?? new Map<string, SourceLimit>();
      const limit = this.countedLimit(max);
      let prev = Infinity;
      for (;;) {
        const excess = this.countedBytes() - limit;
        // Stop when within budget, or when evicting frees nothing more (caches alone over it).
        if (excess <= 0 || excess >= prev) break;
        prev = excess;
        const victim = this.oldestSource((s) => limited.get(s.def.name)?.maxBytes === undefined) ?? this.oldestSource(() => true);
        if (victim === null) break;
        const before = victim.rowCount;
        victim.shed(excess);
        this.budgetEvicted += Math.max(0, before - victim.rowCount);
      }
    } finally {
      this.enforcing = false;
    }
  }

  /** The source (among those `eligible`) whose oldest stored row is oldest; null when none holds rows. */
  private oldestSource(eligible: (s: SourceStore) => boolean): SourceStore | null {
    let best: SourceStore | null = null, bestTs = Infinity;
    for (const s of this.list) {
      if (!eligible(s) || s.heldRows() === 0) continue;
      const t = s.oldestSealedTs();
      if (best === null || t < bestTs) { best = s; bestTs = t; }
    }
    return best;
  }

  /** A source by exact name or UUID. */
  source(nameOrId: string): SourceStore | undefined {
    const direct = this.byName.get(nameOrId);
    if (direct) return direct;
    const def = sourceByNameOrId(nameOrId);
    return def ? this.byName.get(def.name) : undefined;
  }

  /** Every source, in SPEC §1 order. */
  sources(): SourceStore[] {
    return this.list.slice();
  }

  /** Applies retention at nowUs (and capacity) to every source; call it periodically. */
  evict(nowUs: number): void {
    for (const s of this.list) s.evict(nowUs);
    this.enforceMemory();
  }
}
