// A coarse clock for the hot path: µs since the epoch, refreshed by an unref'd 1 ms interval, so a
// cache hit reads a variable instead of asking the OS. Lags the true time by about a tick at most.

import { nowMicros } from './time.ts';

/** How often the clock is refreshed (ms). */
export const TICK_MS = 1;

let current = 0;
let timer: NodeJS.Timeout | null = null;

/** The time at the last tick (µs since the epoch); starts the ticking on first use. */
export function tickNowMicros(): number {
  if (timer === null) {
    current = nowMicros();
    timer = setInterval(() => {
      current = nowMicros();
    }, TICK_MS);
    timer.unref();
  }
  return current;
}
