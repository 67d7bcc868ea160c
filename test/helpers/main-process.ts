// Starts `src/main.ts` as its own process for the process-level harnesses (soak, hostile, crash): a free
// loopback port, demo off, the caller's environment on top; resolves once the server says it listens.

import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => { const a = s.address(); s.close(() => (typeof a === 'object' && a ? resolve(a.port) : reject(new Error('no port')))); });
  });
}

/** `env` must hold at least RINGQL_ACCESS_TOKENS and RINGQL_STATE_DIR; `nodeFlags` go before the script (e.g. --trace-gc, not allowed in NODE_OPTIONS). */
export async function startMainProcess(port: number, env: Record<string, string>, nodeFlags: readonly string[] = []): Promise<ChildProcess> {
  const child = spawn(process.execPath, [...nodeFlags, '--import', 'tsx', 'src/main.ts'], {
    cwd: new URL('../..', import.meta.url).pathname,
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', RINGQL_DEMO: '0', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  await new Promise<void>((resolve, reject) => {
    let out = '';
    const on = (d: Buffer): void => { out += d.toString(); if (out.includes('ringql listening on')) resolve(); };
    child.stdout!.on('data', on);
    child.stderr!.on('data', on);
    child.once('exit', (c) => reject(new Error(`server exited (${c}) before listening: ${out.slice(-1000)}`)));
  });
  return child;
}
