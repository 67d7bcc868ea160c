// The long fuzz run: `npm run fuzz -- --seconds 60 [--seed 1]`. Cycles through every target with fresh
// seeded inputs until the time is up, prints progress every 5 s, and exits 1 listing each finding
// (input JSON-escaped, so it can be pasted into a regression test).

import { Rng, TARGETS, check, type Finding } from './fuzz-targets.ts';

function arg(name: string, fallback: number): number {
  const i = process.argv.indexOf(name);
  if (i < 0) return fallback;
  const v = Number(process.argv[i + 1]);
  if (!Number.isFinite(v) || v <= 0) {
    process.stderr.write(`fuzz: ${name} needs a positive number\n`);
    process.exit(2);
  }
  return v;
}

const seconds = arg('--seconds', 30);
const seed = arg('--seed', Date.now() % 1_000_000);
const rng = new Rng(seed);
const deadline = Date.now() + seconds * 1000;
const counts = new Map(TARGETS.map((t) => [t.name, 0]));
const findings: Finding[] = [];
let lastReport = Date.now();
process.stderr.write(`fuzz: ${seconds} s, seed ${seed}, targets: ${TARGETS.map((t) => t.name).join(', ')}\n`);
while (Date.now() < deadline) {
  for (const t of TARGETS) {
    const input = t.input(rng);
    const f = check(t, input);
    counts.set(t.name, counts.get(t.name)! + 1);
    if (f) {
      findings.push(f);
      process.stderr.write(`fuzz: FINDING in ${f.target}: ${JSON.stringify(f.input.slice(0, 500))}\n${f.error.split('\n').slice(0, 6).join('\n')}\n`);
    }
  }
  if (Date.now() - lastReport > 5000) {
    lastReport = Date.now();
    process.stderr.write(`fuzz: ${[...counts].map(([k, v]) => `${k} ${v}`).join(', ')}; findings ${findings.length}\n`);
  }
}
const total = [...counts.values()].reduce((a, b) => a + b, 0);
process.stdout.write(`fuzz: ${total} inputs in ${seconds} s (${Math.round(total / seconds)}/s), seed ${seed}: ${[...counts].map(([k, v]) => `${k} ${v}`).join(', ')}; ${findings.length} finding(s)\n`);
process.exit(findings.length ? 1 : 0);
