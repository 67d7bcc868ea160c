// The Store: one SourceStore per source of SPEC §1, and the store configuration read from the
// environment (RINGQL_RETENTION_HOURS, RINGQL_MAX_ROWS_PER_SOURCE, RINGQL_MAX_BYTES_PER_SOURCE).

import { totalmem } from 'node:os';
import { limitsConfig, storeSettings, type Limits, type StoreSettings } from '../core/config.ts';
import type { StoreConfig } from './types.ts';
import { SOURCES, sourceByNameOrId } from './sources.ts';
import { SourceStore } from './source-store.ts';
import { DEFAULT_HOT_PATHS } from './hot-paths.ts';

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
  };
}

export class Store {
  private readonly byName = new Map<string, SourceStore>();
  private readonly list: SourceStore[];

  /** `hotPaths` per source name: record paths kept as dictionary columns (tests pass {} to compare). */
  constructor(readonly config: StoreConfig, hotPaths: Readonly<Record<string, readonly string[][]>> = DEFAULT_HOT_PATHS) {
    this.list = SOURCES.map((def) => new SourceStore(def, config, (hotPaths[def.name] ?? []).map((p) => [...p])));
    for (const s of this.list) this.byName.set(s.def.name, s);
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
  }
}
