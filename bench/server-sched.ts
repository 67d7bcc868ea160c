// How a measured server is scheduled during a p99 run (issue 18): its threads raised above the machine's
// other processes for the run and put back after, ringql and raw uWS alike, so the machine's load does not
// set the server's tail. Each mode says what it got (e.g. "other (chrt -f refused: …)" when not root).

import { execFile } from 'node:child_process';
import { readdirSync, writeFileSync } from 'node:fs';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** Real-time priority a server thread gets (the generator's own SCHED_FIFO is 10 too, on the other core). */
export const SERVER_FIFO_PRIORITY = 10;

/**
 * all (the measure): every thread SCHED_RR, so the server has its core as if alone on the machine, its
 * helper threads included (RR, not FIFO: once, in a probe, a raw uWS thread in SCHED_FIFO ran 14 s on the
 * core, up to the kernel's real-time throttling; RR rotates threads of one priority every 100 ms); main: the main thread (the event loop that answers) SCHED_FIFO, the
 * others untouched; main+nice: main thread SCHED_FIFO, the other threads (V8's GC and
 * compiler helpers, libuv's pool) nice -20 in an autogroup of nice -20, so they run ahead of other
 * processes when the main thread waits for them, yet cannot hold the core the way a FIFO thread can;
 * other: as started (SCHED_OTHER, nice 0).
 */
export type ServerSched = 'all' | 'main' | 'main+nice' | 'other';
export const SERVER_SCHEDS: readonly ServerSched[] = ['all', 'main', 'main+nice', 'other'];

const tids = (pid: number): string[] => readdirSync(`/proc/${pid}/task`);

/** Sets `pid`'s threads to `mode` (`undo`: back to SCHED_OTHER, nice 0); the description of what it got. */
async function apply(pid: number, mode: ServerSched, undo: boolean): Promise<string> {
  const fifo = undo ? ['-o', '-p', '0'] : ['-f', '-p', String(SERVER_FIFO_PRIORITY)];
  if (mode === 'all') await run('chrt', ['-a', ...(undo ? fifo : ['-r', '-p', String(SERVER_FIFO_PRIORITY)]), String(pid)]);
  if (mode === 'main' || mode === 'main+nice') await run('chrt', [...fifo, String(pid)]);
  if (mode === 'main+nice') {
    const nice = undo ? '0' : '-20';
    writeFileSync(`/proc/${pid}/autogroup`, nice);
    const helpers = tids(pid).filter((t) => t !== String(pid));
    if (helpers.length) await run('renice', ['-n', nice, '-p', ...helpers]);
  }
  return { all: 'rr 10, all threads', main: 'fifo 10, main thread only', 'main+nice': 'main thread fifo 10, other threads nice -20', other: 'other' }[mode];
}

/** Runs `during` with `pid` scheduled as `mode`, then puts it back; says what it got. */
export async function withServerSched<T>(pid: number, mode: ServerSched, during: () => Promise<T>): Promise<{ value: T; sched: string }> {
  let sched: string;
  let raised = mode !== 'other';
  try {
    sched = await apply(pid, mode, false);
  } catch (e) {
    raised = false;
    await apply(pid, mode, true).catch(() => { /* partly applied or the server ended */ });
    sched = `other (${mode} refused: ${String((e as { stderr?: string; message?: string }).stderr || (e as Error).message).trim().split('\n')[0]})`;
  }
  try {
    return { value: await during(), sched };
  } finally {
    if (raised) await apply(pid, mode, true).catch(() => { /* the server ended */ });
  }
}
