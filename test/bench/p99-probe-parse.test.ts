// bench/p99-core-probe.ts's parsers: `perf sched timehist --state` rows (a preempted thread's whole wait
// counts as waiting for the CPU, a woken one's sch delay) and `--trace-gc` lines (pause and heap sizes).

import { describe, expect, it } from 'vitest';
import { coreSummary, parseTimehist } from '../../bench/p99-sched-rows.ts';
import { parseGcLine } from '../../bench/p99-gc-lines.ts';

const TIMEHIST = [
  '           time    cpu  task name                       wait time  sch delay   run time  state',
  '                        [tid/pid]                          (msec)     (msec)     (msec)       ',
  '--------------- ------  ------------------------------  ---------  ---------  ---------  -----',
  '     100.001000 [0000]  node[500]                           0.000      0.000      1.000      R ',
  '     100.008000 [0000]  node[900]                           0.000      0.000      7.000      S ',
  '     100.010000 [0000]  node[500]                           7.000      0.000      2.000      S ',
  '     100.013500 [0000]  node[501/500]                       0.000      0.500      0.500      S ',
  '     100.020000 [0000]  node[500]                           5.000      1.500      1.000      S ',
].join('\n');

describe('p99 core probe parsers', () => {
  it('reads timehist rows with thread and process ids', () => {
    const rows = parseTimehist(TIMEHIST);
    expect(rows.map((r) => [r.tid, r.pid, r.runMs, r.state])).toEqual([[500, 500, 1, 'R'], [900, 900, 7, 'S'], [500, 500, 2, 'S'], [501, 500, 0.5, 'S'], [500, 500, 1, 'S']]);
  });

  it('counts a preempted main thread\'s whole wait, a woken one\'s delay, and who ran meanwhile', () => {
    const lines = coreSummary(parseTimehist(TIMEHIST), 500, 42);
    // Main thread ran 1 + 2 + 1 ms, its helper 0.5 ms; waits: 0 (first), 7 (preempted, then node[900] ran), 1.5 (woken).
    expect(lines[0]).toContain('server main thread ran 4 ms, its other threads 1 ms');
    expect(lines[1]).toContain('3 times, over 1 ms 2, over 2 ms 1, over 5 ms 1, max 7.00 ms');
    expect(lines[2]).toContain('waited 7.00 ms');
    expect(lines[2]).toContain('node[900] 7.0');
  });

  it('reads scavenge and mark-compact lines of --trace-gc', () => {
    expect(parseGcLine('[123:0x5d1c]     4012 ms: Scavenge 25.1 (40.2) -> 24.3 (40.2) MB, 0.85 / 0.00 ms  (average mu = 0.9')).toEqual({ atMs: 4012, kind: 'Scavenge', beforeMb: 25.1, afterMb: 24.3, pauseMs: 0.85 });
    expect(parseGcLine('[123:0x5d1c]     5000 ms: Mark-Compact (reduce) 30.0 (41.0) -> 20.5 (35.0) MB, 4.30 / 0.00 ms')?.kind).toBe('Mark-Compact (reduce)');
    expect(parseGcLine('ringql listening on 127.0.0.1:8080')).toBeNull();
  });
});
