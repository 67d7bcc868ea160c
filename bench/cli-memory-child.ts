// One `ringql query` run in this process for bench/cli-stream-memory.ts (run with the CLI's own node flags):
// once the NDJSON file is loaded (the "loaded …" line), collects garbage, trims the allocator, resets the
// peak (VmHWM) and notes VmRSS; at the end prints `CLI-MEMORY {json}` on stderr.   Run: see cliChildArgs.

import { readFileSync, writeFileSync } from 'node:fs';
import { queryCommand, stdio } from '../src/cli/query-command.ts';
import { trimNow } from '../src/store/allocator-trim.ts';

const kib = (name: string): number => Number(new RegExp(`${name}:\\s+(\\d+) kB`).exec(readFileSync('/proc/self/status', 'utf8'))?.[1] ?? NaN);
const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('cli-memory-child needs node --expose-gc');

let beforeKiB = NaN;
let loadedAt = NaN;
let cpuAt = process.cpuUsage();
let outBytes = 0;
const rc = await queryCommand(process.argv.slice(2), {
  // The CLI's own output path (process.stdout, a file here, bytes as the bin writes them), counted on the way.
  ...stdio,
  out: (s) => { outBytes += Buffer.byteLength(s); stdio.out(s); },
  outBytes: (b, written) => { outBytes += b.length; stdio.outBytes!(b, written); },
  err: (s) => {
    stdio.err(s);
    if (!s.startsWith('loaded ')) return;
    // Twice: dead ArrayBuffers' memory is freed by a sweep that runs on after a GC; the second one finishes it.
    gc();
    gc();
    // Freed heap pages go back now, not whenever the store's scheduled trim (1 s after a seal) runs: the
    // baseline no longer depends on whether it ran, and the growth is the fresh memory the query needs.
    trimNow();
    writeFileSync('/proc/self/clear_refs', '5');
    beforeKiB = kib('VmRSS');
    loadedAt = performance.now();
    cpuAt = process.cpuUsage();
  },
});
const cpu = process.cpuUsage(cpuAt);
const figure = {
  rc, outBytes, beforeMiB: beforeKiB / 1024, peakMiB: kib('VmHWM') / 1024, growthMiB: (kib('VmHWM') - beforeKiB) / 1024,
  queryMs: performance.now() - loadedAt, queryCpuMs: (cpu.user + cpu.system) / 1000,
};
process.stderr.write(`\nCLI-MEMORY ${JSON.stringify(figure)}\n`);
