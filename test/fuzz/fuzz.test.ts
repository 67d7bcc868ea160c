// The short, fixed-seed fuzz run that is part of `npm test` (the long one: `npm run fuzz -- --seconds N`).
// Every target must answer each input normally or with a RingqlError; findings print their input.

import { describe, expect, it } from 'vitest';
import { Rng, TARGETS, check, type Finding } from './fuzz-targets.ts';

const PER_TARGET = Number(process.env.RINGQL_FUZZ_INPUTS ?? 400);

describe('fuzz (short run)', () => {
  it.each(TARGETS.map((t) => [t.name, t] as const))('%s holds its contract on %#-seeded inputs', (_name, target) => {
    const rng = new Rng(20261122 + target.name.length);
    const findings: Finding[] = [];
    for (let i = 0; i < PER_TARGET; i++) {
      const f = check(target, target.input(rng));
      if (f) findings.push(f);
    }
    expect(findings.map((f) => `${JSON.stringify(f.input.slice(0, 300))}\n${f.error.split('\n').slice(0, 4).join('\n')}`)).toEqual([]);
  });
});
