// The `npm start` demo load phase by phase: spawns `node <dist>/src/main.js` with RINGQL_DEMO=1 (as
// bench/ingest-bench.ts demoLoad() does) and prints, at listening and at all events stored, wall and CPU
// per thread (/proc) and --trace-gc counts per isolate. Usage: npx tsx bench/demo-threads.ts [dist] [node flags...]
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const [dist = 'dist', ...flags] = process.argv.slice(2);
const cwd = new URL('..', import.meta.url).pathname;

/** CPU seconds per thread id of `pid` (the main thread's id is the pid). */
function threadCpu(pid: number, into: Map<number, number>): void {
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      const s = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
      const f = s.slice(s.lastIndexOf(')') + 2).split(' ');
      into.set(Number(tid), (Number(f[11]) + Number(f[12])) / 100);
    } catch { /* the thread ended */ }
  }
}

/** Main, then the two worker threads (demo generator, transform: the last two started), then V8/libuv helpers. */
function summary(pid: number, cpu: Map<number, number>): string {
  const others = [...cpu].filter(([t, c]) => t !== pid && c > 0.05).sort((a, b) => a[0] - b[0]);
  const [gen, transform] = others.slice(-2).map(([, c]) => c);
  const helpers = others.slice(0, -2).reduce((n, [, c]) => n + c, 0);
  const total = [...cpu.values()].reduce((a, b) => a + b, 0);
  return `CPU ${total.toFixed(2)} s: main ${cpu.get(pid)!.toFixed(2)}, generator ${gen?.toFixed(2)}, transform ${transform?.toFixed(2)}, helpers ${helpers.toFixed(2)}`;
}

const t0 = performance.now();
const child = spawn(process.execPath, ['--max-old-space-size=8192', '--trace-gc', ...flags, join(dist, 'src/main.js')], {
  cwd,
  env: { ...process.env, PORT: '0', HOST: '127.0.0.1', RINGQL_DEMO: '1', RINGQL_ACCESS_TOKENS: 'bench', RINGQL_STATE_DIR: mkdtempSync(join(tmpdir(), 'ringql-demo-threads-')) },
  stdio: ['ignore', 'pipe', 'pipe'],
});
const cpu = new Map<number, number>();
const sampler = setInterval(() => threadCpu(child.pid!, cpu), 100);
const gcs = new Map<string, number>();
let out = '';
await new Promise<void>((resolve, reject) => {
  const on = (d: Buffer): void => {
    const text = d.toString();
    out += text;
    for (const line of text.split('\n')) {
      const g = /^\[\d+:(0x[0-9a-f]+)\]\s+\d+ ms: (Scavenge|Mark-Compact|Minor Mark-Sweep)/.exec(line);
      if (g) gcs.set(`${g[1]} ${g[2]}`, (gcs.get(`${g[1]} ${g[2]}`) ?? 0) + 1);
      if (/ringql listening on|demo: loaded \d+ events in/.test(line)) {
        threadCpu(child.pid!, cpu);
        process.stdout.write(`${((performance.now() - t0) / 1000).toFixed(2)} s ${line.slice(0, 50)}: ${summary(child.pid!, cpu)}\n`);
      }
    }
    if (/demo: loaded \d+ events in/.test(out)) resolve();
  };
  child.stdout!.on('data', on);
  child.stderr!.on('data', on);
  child.once('exit', (c) => reject(new Error(`exited ${c}: ${out.slice(-500)}`)));
});
clearInterval(sampler);
process.stdout.write(`GCs per isolate (first seen first): ${[...gcs].map(([k, n]) => `${k} ${n}`).join(', ')}\n`);
child.kill('SIGTERM');
