// bench/RESULTS.md of one run: how it ran, one "Targets" table per issue (14, 15, 16, 18), then the
// detail sections (engine against DuckDB on both kinds of events, memory, ingest, serving, the rest).

import type { RunResults } from './results.ts';
import { issue14, issue15, issue16, issue18, targetTable, type TargetRow } from './targets.ts';
import { renderEngine } from './report.ts';
import { ingestDetail, memoryDetail, otherDetail, servingDetail } from './report-detail.ts';

const ISSUES: [string, (r: RunResults) => TargetRow[]][] = [
  ['Issue 14 (engine v2): prepare-once, and wave-1 figures no worse', issue14],
  ['Issue 15 (storage v2): memory and queries over the compressed layout', issue15],
  ['Issue 16 (ingest v2)', issue16],
  ['Issue 18 (serving v2)', issue18],
];

export function renderRun(r: RunResults, minutes: number): string {
  const m = r.machine;
  const L: string[] = ['# ringql benchmark results', ''];
  const kind = r.quick ? '**quick** (every section small: sizes, durations and the memory cap are reduced, so PASS/MISS is indicative only)' : 'full';
  L.push(`Run: ${kind}, ${new Date().toISOString().slice(0, 16)}Z, ${minutes.toFixed(1)} min, sections ${r.sections.map((s) => s.name).join(', ')}. Regenerate with \`npm run bench\` (\`-- --quick\` for the short run, \`-- --only=<section,...>\` for some sections).`, '');
  L.push(`Machine: ${m.cpu}, ${m.cores} cores, ${m.memoryGiB} GiB, Node ${m.node}, ${m.os}; load generator: ${m.wrk ?? 'wrk not installed'}; a first touch of a 4 KiB page costs ${m.faultUs.page.toFixed(2)} µs of CPU (${m.faultUs.hugePer4k.toFixed(2)} µs per 4 KiB of a huge page: bench/machine.ts). The load average at each section's start and end is in "Sections of this run" at the end: HTTP, latency and memory figures need a quiet machine.`, '');
  const failed = r.sections.filter((s) => s.error);
  if (failed.length) L.push(`**Failed sections:** ${failed.map((s) => `${s.name} (${s.error!.slice(0, 200)})`).join('; ')}.`, '');
  for (const [title, rows] of ISSUES) L.push(`## Targets: ${title}`, '', ...targetTable(rows(r)), '');
  if (r.engine?.length) L.push('## ringql against DuckDB: demo-generator edge events', '', ...renderEngine(r.engine, "the demo generator's edge events (seed fixed), 1,000 projects over 7 days", m.cores));
  if (r.small) L.push('## ringql against DuckDB: ~480 B edge events', '', ...renderEngine([r.small], 'small edge events (bench/small-events.ts: minimal gateway logs, random ids and addresses), 1,000 projects over 7 days', m.cores));
  const mem = memoryDetail(r), ing = ingestDetail(r), srv = servingDetail(r);
  if (mem.length) L.push('## Memory', '', ...mem);
  if (ing.length) L.push('## Ingest and the CLI', '', ...ing);
  if (srv.length) L.push('## Serving', '', ...srv);
  L.push('## Other', '', ...otherDetail(r));
  return L.join('\n');
}
