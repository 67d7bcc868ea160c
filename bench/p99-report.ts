// Markdown tables of bench/p99-half-rate.ts: per run the latency from the intended send time, and beside
// it every place the generator could have added lag (late sends, unread answers, its own CPU wait), so a
// reader can see whether the generator or the server set the p99.

import type { WrkFigure } from './serving-load.ts';
import type { OpenLoopCFigure } from './open-loop-c.ts';

/** A generator mode (bench/open-loop-c.ts), with "/other" when the servers stayed SCHED_OTHER. */
export type P99Mode = string;

export interface P99Round {
  max: WrkFigure;
  target: number;
  ringql: Partial<Record<P99Mode, OpenLoopCFigure>>;
  raw: Partial<Record<P99Mode, OpenLoopCFigure>>;
  load: string;
}

const f = (n: number, d = 0): string => n.toFixed(d);

/** `median (min–max)` of xs with d decimals. */
export function spread(xs: number[], d = 3): string {
  const s = [...xs].sort((a, b) => a - b);
  const mid = s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
  return `${f(mid, d)} (${f(s[0]!, d)}–${f(s[s.length - 1]!, d)})`;
}

function row(r: P99Round, i: number, who: 'ringql' | 'raw', mode: P99Mode): string {
  const h = r[who][mode]!;
  const gen = `${mode}: ${h.session} session, ${h.sched}, ${h.pacing}`;
  return `| ${i + 1} | ${who === 'ringql' ? 'ringql' : 'raw uWS'} (${h.serverSched}) | ${gen} | ${f(r.max.reqPerSec)} (${f(r.max.serverCpu, 2)} / ${f(r.max.wrkCpu, 2)}) | ${r.target} | ${f(h.reqPerSec)} | ${f(h.p50ms, 3)} | **${f(h.p99ms, 3)}** | ${f(h.p999ms, 3)} | ${f(h.maxms, 2)} | ${f(h.p99ArrivedMs, 3)} | ${f(h.p99FromSendMs, 3)} | ${f(h.lateP99ms, 3)} / ${f(h.readLagP99ms, 3)} / ${f(h.readLagMaxMs, 2)} | ${f(h.runDelayMs, 1)} | ${f(h.connWaitP99ms, 3)} | ${f(h.serverWaitMsPerS, 1)} (${f(h.serverThreadsWaitMsPerS, 1)}) | ${f(h.serverCpu, 2)} / ${f(h.cpu, 2)} | ${r.load} |`;
}

const LEGEND = [
  'Latency counts from each request\'s intended send time (request k is due at start + k/rate) to its answer\'s last byte read, so queueing behind a stall is counted (no coordinated omission). Server and raw uWS on core 0 (each in its own session), wrk, the generator and the bench\'s own node process on core 1, 16 keep-alive connections. During each open-loop run and the wrk maximum all the server\'s threads are in SCHED_RR priority 10 when the bench runs as root, ringql and raw uWS alike (*server* column; bench/server-sched.ts; a mode ending in /other, /main or /main+nice schedules them so instead), so the server has core 0 as if alone on the machine; wrk runs in SCHED_FIFO for the maximum, so neither side\'s rate is the machine\'s leftovers. The bench\'s own node process is pinned to core 1.',
  '',
  '- *p99 to arrival*: the same, ending at the kernel\'s receive timestamp of the answer (SO_TIMESTAMPNS) instead of the generator\'s read: the latency without the generator\'s read lag.',
  '- *generator late / read lag / max*: due → the generator saw it due (p99: its own lateness at sending), and answer in the socket → read by the generator (p99, max). These two are all the generator adds; *queued for a connection* (seen due → written, p99) is waiting for one of the 16 connections to come free, i.e. for the server.',
  '- *generator waited for CPU*: ms the generator was runnable but not running over the run (schedstat); *server waited for CPU*: the same for the server\'s main thread (in brackets all its threads, whose helpers share its core), per second of run: time the machine, not the server\'s work, held answers back.',
  '- *isolated* is the measure (own session so its own autogroup, SCHED_FIFO when the bench runs as root, sleeps until the next due time); *plain* is the generator as it was before (the bench\'s session, SCHED_OTHER, busy-polls), kept to show what the generator did to the old figures; *session* (plain in its own session) and *sleep* (own session, sleeping, SCHED_OTHER) take one factor at a time.',
];

/** The run table, then medians over the rounds (`modes`: the generator modes each round ran). */
export function p99Report(rounds: P99Round[], modes: readonly P99Mode[]): string[] {
  const m = (g: (r: P99Round) => number, d = 3): string => spread(rounds.map(g), d);
  return [
    ...LEGEND,
    '',
    '| round | server | generator | max req/s by wrk -c32 (CPU server / wrk) | target req/s | answered req/s | p50 ms | p99 ms | p99.9 ms | max ms | p99 to arrival ms | p99 from send ms | generator late p99 / read lag p99 / max ms | generator waited for CPU ms | queued for a connection p99 ms | server main thread (all threads) waited for CPU ms/s | CPU server / generator | load avg before |',
    '|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|',
    ...rounds.flatMap((r, i) => modes.flatMap((g) => [row(r, i, 'ringql', g), row(r, i, 'raw', g)])),
    '',
    '| measure over the rounds | median (min–max) |',
    '|---|---|',
    ...modes.flatMap((g) => {
      const x = (who: 'ringql' | 'raw', k: keyof OpenLoopCFigure, d = 3): string => m((r) => r[who][g]![k] as number, d);
      const b = g === 'isolated' ? '**' : '';
      return [
        `| ${b}ringql p99 at half its max rate, ${g} generator, ms${b} | ${b}${x('ringql', 'p99ms')}${b} |`,
        `| raw uWS p99 at the same rate, ${g} generator, ms | ${x('raw', 'p99ms')} |`,
        `| ${g}: ringql / raw uWS p99 to arrival (without the generator's read lag), ms | ${x('ringql', 'p99ArrivedMs')} / ${x('raw', 'p99ArrivedMs')} |`,
        `| ${g}: generator late p99 / read lag p99 / its CPU wait, against ringql, ms | ${x('ringql', 'lateP99ms')} / ${x('ringql', 'readLagP99ms')} / ${x('ringql', 'runDelayMs', 1)} |`,
        `| ${g}: server waited for CPU, ringql / raw uWS, ms per s | ${x('ringql', 'serverWaitMsPerS', 1)} / ${x('raw', 'serverWaitMsPerS', 1)} |`,
      ];
    }),
    `| ringql max req/s | ${m((r) => r.max.reqPerSec, 0)} |`,
  ];
}
