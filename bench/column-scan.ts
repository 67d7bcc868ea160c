// The column-only load's transform alone: the addon's noRows scan (src/native/scan-*.c) against its tape path
// (a hot path absent from every event turns the scan off) on the same 1000-line bodies, CPU s best of 7, interleaved.
// Run: npx tsx bench/column-scan.ts [ndjson file] [MB]   (default: the cli section's edge file, 64 MB from byte 200M)

import { closeSync, openSync, readSync } from 'node:fs';
import { cpuUsage } from 'node:process';
import { runTransform } from '../src/store/byte-batch.ts';

const file = process.argv[2] ?? '/tmp/ringql-bench/edge-460000-s7-498774.ndjson';
const mb = Number(process.argv[3] ?? 64);

function bodiesOf(path: string): { bodies: Buffer[]; bytes: number } {
  const fd = openSync(path, 'r');
  const buf = Buffer.allocUnsafe(mb << 20);
  const got = readSync(fd, buf, 0, buf.length, 200 << 20);
  closeSync(fd);
  const st = buf.indexOf(0x0a) + 1, end = buf.subarray(0, got).lastIndexOf(0x0a) + 1;
  const bodies: Buffer[] = [];
  for (let s = st; s < end;) {
    let e = s;
    for (let k = 0; k < 1000 && e < end; k++) e = buf.indexOf(0x0a, e) + 1;
    bodies.push(buf.subarray(s, e));
    s = e;
  }
  return { bodies, bytes: end - st };
}

function once(bodies: Buffer[], hotPaths: string[][]): number {
  const t = cpuUsage();
  for (const body of bodies) {
    const r = runTransform({ body, ndjson: true, maxEventDepth: 32, maxStringBytes: 1 << 20, fillUs: 1.7e15, projectPath: ['project'], hotPaths, idSeed: Buffer.alloc(16), noRows: true });
    if (typeof r === 'string') throw new Error(`declined: ${r}`);
  }
  const u = cpuUsage(t);
  return (u.user + u.system) / 1e6;
}

const { bodies, bytes } = bodiesOf(file);
const best = { scan: Infinity, tape: Infinity };
for (let r = 0; r < 7; r++) {
  best.scan = Math.min(best.scan, once(bodies, []));
  best.tape = Math.min(best.tape, once(bodies, [['zz_absent']]));
}
const rate = (s: number): string => `${s.toFixed(4)} s (${(bytes / s / 1e6).toFixed(0)} MB/s)`;
console.log(`${(bytes / 1e6).toFixed(1)} MB, ${bodies.length} bodies: scan ${rate(best.scan)}, tape ${rate(best.tape)}, tape ÷ scan ${(best.tape / best.scan).toFixed(2)}`);
