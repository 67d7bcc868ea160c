// Issue 18: the hot path's coarse clock ticks only while it is read; once reads stop, its 1 ms interval
// stops too, and the next read starts it again with a fresh time.

import { describe, expect, it } from 'vitest';
import { tickClockRunning, tickNowMicros } from '../../src/core/tick-clock.ts';
import { nowMicros } from '../../src/core/time.ts';

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

describe('tick clock', () => {
  it('stops ticking when nobody reads it and starts again, fresh, on the next read', async () => {
    const before = nowMicros();
    const t = tickNowMicros();
    expect(t).toBeGreaterThanOrEqual(before);
    expect(tickClockRunning()).toBe(true);
    // Read while it ticks: the value follows the time.
    const deadline = Date.now() + 2000;
    while (tickNowMicros() === t && Date.now() < deadline) await sleep(5);
    expect(tickNowMicros()).toBeGreaterThan(t);
    // No reads for a while (generous): two ticks pass without a read and the interval is gone.
    const stopDeadline = Date.now() + 5000;
    while (tickClockRunning() && Date.now() < stopDeadline) await sleep(20);
    expect(tickClockRunning()).toBe(false);
    await sleep(30);
    const after = nowMicros();
    expect(tickNowMicros()).toBeGreaterThanOrEqual(after);
    expect(tickClockRunning()).toBe(true);
  });
});
