// Prints the node flags `npm start` runs the server with: the V8 heap limit derived from RINGQL_MAX_MEMORY
// (or RINGQL_HEAP_MB) and a young-generation cap. A malformed variable is named on stderr with exit code 2, as the server does.

import { heapLimitMbFromEnv } from '../core/memory-env.ts';

/**
 * Young-generation semi-space cap (MiB). V8's default (16 on 64-bit) lets start-up allocation grow the
 * young generation to pages an idle server then keeps: 4 measured 93-94 MiB idle RSS against 98-101
 * (2: 91, 1: 87-89; bench/MEMORY.md), and a smaller young generation under ingest too.
 */
export const SEMI_SPACE_MB = 4;

/**
 * The node flags of the `ringql` bin (the shebang of src/cli/ringql.js; bench/cli-memory-child.ts runs with
 * them too): the server's young-generation cap — a streamed 100k-row print makes garbage fast, and V8's
 * default young generation let it grow by about 30 MiB of RSS more (bench/CLI.md) — and scavenges done by
 * the thread whose young generation it is: a `ringql query` load keeps three threads busy, and V8's parallel
 * scavenge tasks cost ~0.1 CPU-s more on two cores (~5% of the 1 GB query's wall; round 13 of bench/CLI.md).
 */
export const CLI_NODE_FLAGS: readonly string[] = [`--max-semi-space-size=${SEMI_SPACE_MB}`, '--no-parallel-scavenge'];

/** `--max-old-space-size=<MiB>` for `env` and the semi-space cap; throws a ConfigError on a malformed variable. */
export function nodeFlags(env: Record<string, string | undefined>): string[] {
  return [`--max-old-space-size=${heapLimitMbFromEnv(env)}`, `--max-semi-space-size=${SEMI_SPACE_MB}`];
}

if (import.meta.url === `file://${process.argv[1]}`) {
  try {
    process.stdout.write(nodeFlags(process.env).join(' ') + '\n');
  } catch (err) {
    process.stderr.write(`ringql: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(2);
  }
}
