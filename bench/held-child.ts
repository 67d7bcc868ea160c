// Child of bench/events-held.ts: stores the NDJSON events arriving on stdin in one store (the byte path)
// until `target` are held or the machine's available memory drops under `reserveMiB`; prints one JSON line.
//   node --expose-gc --import tsx bench/held-child.ts <target> <reserveMiB>

import { readFileSync } from 'node:fs';
import { Store, defaultStoreConfig } from '../src/store/store.ts';
import { compressPendingNow } from '../src/store/block-compressor.ts';
import { END_US } from './data.ts';
import { progress } from './stats.ts';

const [targetArg, reserveArg] = process.argv.slice(2);
const target = Number(targetArg), reserve = Number(reserveArg) * 2 ** 20;
const availableBytes = (): number => Number(/MemAvailable:\s+(\d+) kB/.exec(readFileSync('/proc/meminfo', 'utf8'))?.[1] ?? 0) * 1024;
const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('held-child needs node --expose-gc');

gc();
const before = process.memoryUsage().rss;
// No limit of rows, bytes, retention or budget short of the machine: what one process can hold.
const budget = String(Math.max(1, Math.floor((availableBytes() - reserve) / 2 ** 20))) + 'M';
const store = new Store({ ...defaultStoreConfig({ RINGQL_MAX_ROWS_PER_SOURCE: '1000000000', RINGQL_MAX_BYTES_PER_SOURCE: String(256 * 2 ** 30), RINGQL_MAX_MEMORY: budget }), retentionUs: 1e18 });
const src = store.source('edge.logs.prod')!;
let stopped: 'target' | 'memory' | 'input' = 'input';
let carry = Buffer.alloc(0), bytes = 0, nextNote = 5_000_000;

/** Stores the whole lines of carry + parts; keeps the partial last line. False once it should stop. */
function store1(parts: Buffer[], final: boolean): boolean {
  const buf = Buffer.concat([carry, ...parts]);
  const end = final ? buf.length - 1 : buf.lastIndexOf(10);
  if (end < 0) { carry = buf; return true; }
  carry = Buffer.from(buf.subarray(end + 1));
  const body = buf.subarray(0, end + 1);
  if (!body.length) return true;
  const r = src.ingestBytes(body, true, END_US);
  if (typeof r === 'string') throw new Error(`held-child: the byte path declined a body: ${r}`);
  bytes += body.length;
  if (src.rowCount >= nextNote) { progress(`  held ${src.rowCount.toLocaleString()}, RSS ${(process.memoryUsage().rss / 2 ** 30).toFixed(2)} GiB, available ${(availableBytes() / 2 ** 30).toFixed(1)} GiB`); nextNote += 5_000_000; }
  if (src.rowCount >= target) { stopped = 'target'; return false; }
  if (availableBytes() < reserve) { stopped = 'memory'; return false; }
  return true;
}

const t0 = performance.now();
let pending: Buffer[] = [], pendingBytes = 0, going = true;
for await (const data of process.stdin as AsyncIterable<Buffer>) {
  // Bodies of ~4 MiB, as the other benches' loads use (stdin's 64 KiB reads are far smaller).
  pending.push(data);
  pendingBytes += data.length;
  if (pendingBytes < 4 << 20) continue;
  going = store1(pending, false);
  pending = [];
  pendingBytes = 0;
  if (!going) break;
}
if (going) store1(pending, true);
const loadMs = performance.now() - t0;
compressPendingNow();
gc();
const after = process.memoryUsage();
const st = src.stats();
process.stdout.write(JSON.stringify({ held: src.rowCount, evicted: st.evicted, ndjsonBytes: bytes, rss: after.rss, rssGrowth: after.rss - before, counted: store.memoryStats().used_bytes, budget, stopped, loadMs }) + '\n');
process.exit(0);
