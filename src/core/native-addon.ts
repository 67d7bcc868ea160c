// Loads ringql's own native addon (src/native, built by `npm ci`) and refuses to run without it: there is no
// silent slow substitute. The store types its ingest functions (store/native-ingest.ts); the byte helpers
// every layer may use (CRC-32, copies into shared memory) are typed and exported here.

import { createRequire } from 'node:module';
import { projectPath } from './project-root.ts';

/** The addon's functions that are plain byte work, for any layer. */
export interface ByteFunctions {
  /** zlib's crc32 of `bytes` continued from `seed` (0 to start), by PCLMULQDQ where the CPU has it; `tablesOnly`: the table path (tests). */
  crc32(bytes: Uint8Array, seed: number, tablesOnly?: boolean): number;
  /** Whether crc32 takes the PCLMULQDQ path on this CPU. */
  crc32Clmul: boolean;
  /** Copies src[ranges[2k], ranges[2k + 1]) for k < count end to end into dst from `at`; returns the bytes copied (RangeError when out of bounds). */
  gather(dst: Buffer, at: number, src: Buffer, ranges: Float64Array, count: number): number;
  /** Copies all of `src` into `dst` from byte `at` with memcpy (a RangeError, copying nothing, when it does not fit); returns the bytes copied. */
  copyBytes(dst: Uint8Array, at: number, src: ArrayBuffer | Uint8Array): number;
}

// From the checkout's root, so the compiled server in dist/ loads the same build as the TypeScript one.
const ADDON_PATH = projectPath('src/native/build/Release/ringql_ingest.node');

/**
 * The addon at `path` (absolute, or relative to this file) when it has every function in `required`;
 * throws, naming the fix, when it cannot be loaded or lacks one (a stale build).
 */
export function loadNativeAddon<T extends object>(required: readonly string[], path = ADDON_PATH): T {
  const require = createRequire(import.meta.url);
  try {
    const mod = require(path) as Record<string, unknown>;
    const missing = required.filter((f) => typeof mod[f] !== 'function');
    if (missing.length > 0) throw new Error(`it has no ${missing.join(', ')} function (a stale build?)`);
    return mod as T;
  } catch (e) {
    const why = e instanceof Error ? e.message : String(e);
    throw new Error(
      `ringql: the native ingest addon (src/native) failed to load: ${why}. ringql will not start without it ` +
        '(there is no slow fallback). Run `npm run native` (or `npx node-gyp rebuild -C src/native`) (needs python3, make, ' +
        'a C compiler and the Node headers: npm_config_nodedir, or include/node beside the running node).',
    );
  }
}

/** The functions of ByteFunctions, which every load of the addon checks for. */
export const BYTE_FUNCTION_NAMES = ['crc32', 'copyBytes', 'gather'] as const;

/** Loaded with the first module that needs it: a missing or broken build stops the start there. */
export const NATIVE_BYTES: ByteFunctions = loadNativeAddon<ByteFunctions>(BYTE_FUNCTION_NAMES);
