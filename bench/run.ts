// `npm run bench [-- --quick] [-- --only=engine,serving,...]`: every target of issues 14, 15, 16 and 18,
// section by section (bench/sections.ts), each ratio against its peer in the same run; writes
// bench/RESULTS.md (full run), RESULTS-quick.md (--quick) or RESULTS-partial.md (--only).

import { writeFileSync } from 'node:fs';
import { describeMachine } from './machine.ts';
import { progress } from './stats.ts';
import { loadAverage } from './proc-tree.ts';
import { SECTIONS } from './sections.ts';
import { renderRun } from './render-run.ts';
import type { RunResults } from './results.ts';

const quick = process.argv.includes('--quick');
const onlyArg = process.argv.find((a) => a.startsWith('--only='))?.slice('--only='.length);
const names = onlyArg ? onlyArg.split(',').map((s) => s.trim()).filter(Boolean) : Object.keys(SECTIONS);
const unknown = names.filter((n) => !(n in SECTIONS));
if (unknown.length) {
  process.stderr.write(`bench: unknown section(s) ${unknown.join(', ')}; sections: ${Object.keys(SECTIONS).join(', ')}\n`);
  process.exit(2);
}
const started = performance.now();
const machine = describeMachine();
const results: RunResults = { quick, machine, sections: [] };
progress(`${quick ? 'quick' : 'full'} run on ${machine.cpu} (${machine.cores} cores, ${machine.memoryGiB} GiB), sections ${names.join(', ')}`);
for (const [i, name] of names.entries()) {
  const t = performance.now(), load = loadAverage();
  progress(`section ${i + 1}/${names.length} ${name}: ${SECTIONS[name]!.what} (load average ${load})`);
  let error: string | undefined;
  try {
    await SECTIONS[name]!.run(results, quick);
  } catch (err) {
    // The rest of a long run is kept; the reason is in the report.
    // One line for the report's tables (a child's error carries its whole stderr tail).
    error = (err instanceof Error ? err.message : String(err)).replace(/\s+/g, ' ').slice(0, 300);
    progress(`section ${name} failed: ${err instanceof Error ? err.stack : error}`);
  }
  const minutes = (performance.now() - t) / 60_000;
  results.sections.push({ name, minutes, load: { start: load, end: loadAverage() }, ...(error ? { error } : {}) });
  progress(`section ${name} done in ${minutes.toFixed(1)} min${error ? ' (FAILED)' : ''}`);
}
// The serving section installs wrk when it is missing: the machine line names the one the run used.
results.machine.wrk = describeMachine().wrk;
const file = onlyArg ? 'RESULTS-partial.md' : quick ? 'RESULTS-quick.md' : 'RESULTS.md';
const report = renderRun(results, (performance.now() - started) / 60_000);
writeFileSync(new URL(`./${file}`, import.meta.url), report);
process.stdout.write(report);
progress(`wrote bench/${file} in ${((performance.now() - started) / 60_000).toFixed(1)} min`);
// Child processes (servers, peers) are gone; pending handles of imported modules must not hold the run.
process.exit(results.sections.some((s) => s.error) ? 1 : 0);
