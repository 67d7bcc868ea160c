// Waits until the blocks sealed by a load are compressed, so `ringql query` runs on a settled store (its
// memory then does not depend on how much compression, and freeing of raw blocks, overlaps the query).

import { compressorStats } from '../store/block-compressor.ts';

/** How often the compressor's backlog is looked at (ms). */
const POLL_MS = 5;

/**
 * Resolves once no sealed block waits for compression, or after `maxMs`. Polled: compressionCaughtUp()'s
 * timer is unref'd (a server's checkpoint must not keep the process alive), so a CLI awaiting it with
 * nothing else pending could exit mid-run.
 */
export async function compressionSettled(maxMs = 10_000): Promise<void> {
  const until = performance.now() + maxMs;
  while (compressorStats().pending > 0 && performance.now() < until) await new Promise((r) => setTimeout(r, POLL_MS));
}
