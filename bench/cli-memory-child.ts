// One `ringql query` run in this process for bench/cli-stream-memory.ts: once the NDJSON file is loaded
// (the "loaded …" line), collects garbage, resets the peak (VmHWM) and notes VmRSS; at the end prints
// `CLI-MEMORY {json}` on stderr.   Run: node --expose-gc --import tsx bench/cli-memory-child.ts <query args…>

import { readFileSync, writeFileSync } from 'node:fs';
import { queryCommand } from '../src/cli/query-command.ts';

const kib = (name: string): number => Number(new RegExp(`${name}:\\s+(\\d+) kB`).exec(readFileSync('/proc/self/status', 'utf8'))?.[1] ?? NaN);
const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('cli-memory-child needs node --expose-gc');

let beforeKiB = NaN;
let loadedAt = NaN;
let outBytes = 0;
const rc = await queryCommand(process.argv.slice(2), {
  // The CLI's own output path (process.stdout, a file here), counted on the way.
  out: (s) => { outBytes += Buffer.byteLength(s); process.stdout.write(s); },
  err: (s) => {
    process.stderr.write(s);
    if (!s.startsWith('loaded ')) return;
    gc();
    writeFileSync('/proc/self/clear_refs', '5');
    beforeKiB = kib('VmRSS');
    loadedAt = performance.now();
  },
});
const figure = { rc, outBytes, beforeMiB: beforeKiB / 1024, peakMiB: kib('VmHWM') / 1024, growthMiB: (kib('VmHWM') - beforeKiB) / 1024, queryMs: performance.now() - loadedAt };
process.stderr.write(`\nCLI-MEMORY ${JSON.stringify(figure)}\n`);
