// bench/machine.ts's page-fault probe: a first touch of fresh memory, in 4 KiB pages and in huge pages, as
// CPU µs per 4 KiB (the figure bench/RESULTS.md's Machine line gives).

import { describe, expect, it } from 'vitest';
import { describeMachine, pageFaultCost } from '../../bench/machine.ts';

describe('pageFaultCost', () => {
  it('measures a positive, finite cost per 4 KiB page and per 4 KiB of a huge page', () => {
    const f = pageFaultCost();
    for (const v of [f.page, f.hugePer4k]) {
      expect(Number.isFinite(v)).toBe(true);
      expect(v).toBeGreaterThan(0);
    }
    // Touching 64 MiB a page at a time faults every page in: at least a fault's kernel entry each, well
    // above a plain store's nanoseconds on any machine.
    expect(f.page).toBeGreaterThan(0.05);
    expect(describeMachine().faultUs.page).toBeGreaterThan(0);
  });
});
