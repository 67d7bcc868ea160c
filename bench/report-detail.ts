// The detail sections of bench/RESULTS.md after the targets: events held, idle RSS, the memory cap,
// ingest, `ringql query` against DuckDB, serving, streamed CLI output, prepare-once, and section timings.

import type { RunResults } from './results.ts';
import { fmtMs, num } from './stats.ts';
import { overheadTable } from './prepare-overhead.ts';
import { INPROC_ROUNDS } from './ingest-inproc.ts';

const mib = (b: number): string => `${(b / 2 ** 20).toFixed(0)} MiB`;
const loadNote = (l: { start: string; end: string }): string => `Load average (1, 5, 15 min) at start ${l.start}, at end ${l.end}.`;

export function memoryDetail(r: RunResults): string[] {
  const L: string[] = [];
  const h = r.held;
  if (h) {
    L.push('### Edge events held in one process (`bench/events-held.ts`)', '',
      `~480 B edge events generated as text and streamed to one child process, stored through the byte path with no row, byte, retention or budget limit short of the machine (budget ${h.budget}); it stops at ${h.target.toLocaleString()} events or when the machine has under 2 GiB available. Held **${h.held.toLocaleString()}** (stopped: ${h.stopped}; ${h.evicted} evicted) from ${(h.ndjsonBytes / 1e9).toFixed(1)} GB of NDJSON in ${(h.loadMs / 1000).toFixed(0)} s; RSS ${mib(h.rss)} (growth ${mib(h.rssGrowth)}, ${(h.rssGrowth / h.held).toFixed(0)} B/event, ${(h.rssGrowth / h.ndjsonBytes).toFixed(3)} of the NDJSON), store-counted ${mib(h.counted)}. ${loadNote(h.load)}`, '');
  }
  if (r.idle) {
    L.push('### Idle RSS (`bench/idle-rss.ts`)', '', `The empty server as \`npm start\` runs it (RINGQL_DEMO=0, 3 s after it listens), whole process tree: **${(r.idle.bytes / 2 ** 20).toFixed(1)} MiB**.`, '');
    for (const p of r.idle.parts) L.push(`- ${(p.kib / 1024).toFixed(1)} MiB \`${p.cmd.slice(0, 100)}\``);
    L.push('');
  }
  const c = r.cap;
  if (c) {
    L.push(`### RINGQL_MAX_MEMORY=${(c.capBytes / 2 ** 20).toFixed(0)}M under endless ingest (\`bench/memory-cap.ts\`)`, '',
      `The compiled server (write-ahead log on) took ${c.sent.events.toLocaleString()} ~480 B edge events (${(c.sent.bytes / 1e9).toFixed(2)} GB of NDJSON, 500-event bodies, 4 in flight) in ${c.seconds.toFixed(0)} s (${num(c.sent.events / c.seconds)} events/s), until it had evicted for the budget at least as many events as it held, plus 20 s (or the time bound). Whole-tree RSS sampled every 250 ms: **max ${mib(c.maxRss)}**, ${mib(c.endRss)} at the end; budget use at the end ${mib(c.usedBytes)}. Events held ${c.held.toLocaleString()}, evicted for the budget ${c.evictedForBudget.toLocaleString()}. Oldest event left ${new Date(c.oldestLeft / 1000).toISOString()} against the first body's newest ${new Date(c.firstBatchMax / 1000).toISOString()} (oldest evicted: ${c.oldestEvicted ? 'yes' : 'NO'}); newest left equals the last event sent: ${c.newestQueryable ? 'yes' : 'NO'}. ${loadNote(c.load)}`, '');
  }
  return L;
}

export function ingestDetail(r: RunResults): string[] {
  const L: string[] = [];
  const i = r.ingest;
  if (i) {
    L.push('### Ingest (`bench/ingest-bench.ts` parts)', '', '| corpus | events | bytes/event | JSON.parse µs/event | reference path µs/event | byte path µs/event | byte path ÷ JSON.parse | HTTP events/s (500/body, WAL on), sustained: best of the in-flight levels | MB/s | server CPU µs/event: all threads / main thread | client CPU | HTTP by bodies in flight: events/s (server CPU µs/event) | HTTP first pass on the fresh server: events, events/s (server CPU µs/event) | load generator alone, events/s (its CPU) |', '|---|---|---|---|---|---|---|---|---|---|---|---|---|---|');
    for (const c of i.corpora) L.push(`| ${c.name} | ${c.events.toLocaleString()} | ${(c.bytes / c.events).toFixed(0)} | ${c.parseUs.toFixed(2)} | ${c.referenceUs.toFixed(2)} | ${c.bytePathUs.toFixed(2)} | ${(c.bytePathUs / c.parseUs).toFixed(2)} | ${num(c.http.eventsPerS)} | ${((c.http.eventsPerS * c.bytes) / c.events / 1e6).toFixed(1)} | ${c.http.serverCpuUs.toFixed(1)} / ${c.http.mainThreadCpuUs.toFixed(1)} | ${(c.http.clientCpu * 100).toFixed(0)}% of a core | ${c.http.levels.map((l) => `${l.inflight}: ${num(l.eventsPerS)} (${l.serverCpuUs.toFixed(1)})`).join('; ')} | ${num(c.http.first.events)}, ${num(c.http.first.eventsPerS)} (${c.http.first.serverCpuUs.toFixed(1)}) | ${num(c.generator.eventsPerS)} (${(c.generator.clientCpu * 100).toFixed(0)}% of a core) |`);
    L.push('', `Demo load (\`RINGQL_DEMO=1\`, 300,000 events): ${i.demo.toServingS.toFixed(1)} s from spawn to serving (the first batch stored; ${i.demo.cpuS.toFixed(1)} CPU-s), ${i.demo.toLoadedS.toFixed(1)} s to all 300k stored (${i.demo.loadedCpuS.toFixed(1)} s of its CPU), peak RSS ${i.demo.peakRssMiB} MiB (${i.demo.loadLine}). In-process figures are CPU time, best of ${INPROC_ROUNDS}, in a child with the server's node flags. Over HTTP, each corpus is posted to a freshly started server as one stream: its first events (a pass that also pays the fresh process's JIT compiling and heap growth) are reported apart, then 1.5× as many at each in-flight level; the best level is the sustained rate (with fewer bodies in flight both server threads wait on each batch's round trip). ${loadNote(i.load)}`, '');
  }
  const c = r.cli;
  if (c) {
    L.push('### `ringql query` over a ~1 GB NDJSON file against DuckDB (`bench/cli-vs-duck.ts`)', '',
      `${c.data.events.toLocaleString()} demo edge events, ${(c.data.bytes / 1e9).toFixed(2)} GB. ringql: the whole \`ringql query --load edge.logs.prod=<file> --sql 'select project, count(*) as n … group by project order by n desc, project limit 20'\` process (start, load, query, print). DuckDB: the same grouping over \`read_json(<file>)\` in a child, timed from instance creation to rows (its process start not counted). Answers ${c.same ? 'equal' : '**DIFFER**'}.`, '',
      '| | time |', '|---|---|', `| ringql query (process wall) | ${fmtMs(c.ringql)} |`, `| DuckDB read_json, all cores | ${fmtMs(c.duckAll)} |`, `| DuckDB read_json, 1 thread | ${fmtMs(c.duck1)} |`, '', loadNote(c.load), '');
  }
  return L;
}

export function servingDetail(r: RunResults): string[] {
  const L: string[] = [];
  const s = r.serving;
  if (s) {
    L.push('### Serving (`bench/serving-bench.ts`)', '',
      `100,000 demo events ingested over HTTP; ringql and the raw uWebSockets.js peer (same response bytes: ${s.cachedBytes} B cached usage.api-counts hourly, ${s.logsBytes} B logs.all) pinned to core 0, wrk -t1 -c32 and the open-loop generator (\`bench/open-loop.c\`, 16 connections) to core 1, ${s.seconds} s per run. logs.all rotates \`iso_timestamp_start\` so no cache answers. CPU = CPU seconds ÷ wall seconds (1.00 = a core busy): the side near 1.00 saturated. The p99 runs at half the cached maximum measured with wrk in SCHED_FIFO and the server in SCHED_RR (target req/s), and during them all of the server's threads are in SCHED_RR, ringql and raw uWS alike (*server scheduling*; the throughput columns are measured without), so other processes on the machine do not preempt the server. ${loadNote(s.load)}`, '',
      '| round | cached: ringql / raw req/s | ratio | CPU ringql / raw / wrk | logs.all: ringql / raw req/s | ratio | CPU ringql / raw / wrk | p99 at half rate (target req/s) | p50 / p99.9 / max ms | raw uWS p99 at that rate | generator late / read lag p99 | server waited for CPU | server scheduling |', '|---|---|---|---|---|---|---|---|---|---|---|---|---|---|');
    s.rounds.forEach((x, i) => L.push(`| ${i + 1} | ${num(x.cached.reqPerSec)} / ${num(x.cachedRaw.reqPerSec)} | **${num(x.cached.reqPerSec / x.cachedRaw.reqPerSec)}** | ${x.cached.serverCpu.toFixed(2)} / ${x.cachedRaw.serverCpu.toFixed(2)} / ${Math.max(x.cached.wrkCpu, x.cachedRaw.wrkCpu).toFixed(2)} | ${num(x.logs.reqPerSec)} / ${num(x.logsRaw.reqPerSec)} | **${num(x.logs.reqPerSec / x.logsRaw.reqPerSec)}** | ${x.logs.serverCpu.toFixed(2)} / ${x.logsRaw.serverCpu.toFixed(2)} / ${Math.max(x.logs.wrkCpu, x.logsRaw.wrkCpu).toFixed(2)} | **${num(x.half.p99ms)} ms** (${x.target}) | ${num(x.half.p50ms)} / ${num(x.half.p999ms)} / ${num(x.half.maxms)} | ${num(x.halfRaw.p99ms)} ms | ${num(x.half.lateP99ms)} / ${num(x.half.readLagP99ms)} ms | ${x.half.serverWaitMsPerS.toFixed(0)} ms/s | ${x.half.serverSched ?? 'other'} |`));
    L.push('', `Streamed answers over HTTP (10,000 edge rows, max_limit; fresh server each; VmHWM growth): NDJSON ${s.mem.ndjson.growthMiB.toFixed(1)} MiB (streamed: ${s.mem.ndjson.streamed}), CSV ${s.mem.csv.growthMiB.toFixed(1)} MiB (streamed: ${s.mem.csv.streamed}), cached endpoint built whole ${s.mem.whole.growthMiB.toFixed(1)} MiB; body ${s.mem.ndjson.bodyMiB.toFixed(1)} MiB.`, '');
  }
  if (r.cliStream?.length) {
    L.push('### 100k rows through `ringql query --format` (`bench/cli-stream-memory.ts`)', '', '| format | round | output | RSS after load | peak RSS growth, 100k rows | 1-row baseline | query + print |', '|---|---|---|---|---|---|---|');
    for (const x of r.cliStream) L.push(`| ${x.format} | ${x.round} | ${(x.big.outBytes / 2 ** 20).toFixed(1)} MiB | ${x.big.beforeMiB.toFixed(0)} MiB | **${x.big.growthMiB.toFixed(1)} MiB** | ${x.base.growthMiB.toFixed(1)} MiB | ${(x.big.queryMs / 1000).toFixed(2)} s |`);
    L.push('');
  }
  return L;
}

export function otherDetail(r: RunResults): string[] {
  const L: string[] = [];
  if (r.prepare) L.push('### Per-request planning overhead (`bench/prepare-overhead.ts`)', '', overheadTable(r.prepare), '');
  if (r.cluster) L.push(r.cluster.replace(/^#/gm, '###'), '');
  L.push('## Sections of this run', '', '| section | minutes | load average at start → end | |', '|---|---|---|---|');
  for (const s of r.sections) L.push(`| ${s.name} | ${s.minutes.toFixed(1)} | ${s.load.start} → ${s.load.end} | ${s.error ? `**failed**: ${s.error.slice(0, 200)}` : ''} |`);
  L.push('');
  return L;
}
