// Prints the node flags `npm start` runs the server with: the V8 heap limit derived from RINGQL_MAX_MEMORY
// (or RINGQL_HEAP_MB). A malformed variable is named on stderr with exit code 2, as the server does.

import { heapLimitMbFromEnv } from '../core/memory-env.ts';

/** `--max-old-space-size=<MiB>` for `env`; throws a ConfigError on a malformed variable. */
export function nodeFlags(env: Record<string, string | undefined>): string[] {
  return [`--max-old-space-size=${heapLimitMbFromEnv(env)}`];
}

if (import.meta.url === `file://${process.argv[1]}`) {
  try {
    process.stdout.write(nodeFlags(process.env).join(' ') + '\n');
  } catch (err) {
    process.stderr.write(`ringql: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(2);
  }
}
