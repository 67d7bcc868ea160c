// A coarse clock for the hot path: µs since the epoch, refreshed by an unref'd 1 ms interval, so a
// cache hit reads a variable instead of asking the OS. Lags the true time by about a tick at most.
// The interval runs only while the clock is read: a tick that finds no read since the last one stops
// it (an idle server does not wake every millisecond), and the next read starts it again, fresh.

import { nowMicros } from './time.ts';

/** How often the clock is refreshed (ms). */
export const TICK_MS = 1;

let current = 0;
let timer: NodeJS.Timeout | null = null;
let readSinceTick = false;

/** The time at the last tick (µs since the epoch); starts the ticking when it is stopped. */
export function tickNowMicros(): number {
  if (timer === null) {
    current = nowMicros();
    timer = setInterval(tick, TICK_MS);
    timer.unref();
  }
  readSinceTick = true;
  return current;
}

function tick(): void {
  if (!readSinceTick) {
    clearInterval(timer!);
    timer = null;
    return;
  }
  readSinceTick = false;
  current = nowMicros();
}

/** Whether the refresh interval is running (tests). */
export function tickClockRunning(): boolean {
  return timer !== null;
}
