// Runs one benchmark phase in its own Node process (so memory and JIT state never mix between ringql
// and the peer) and returns the JSON object it prints last; its progress goes straight to stderr.

import { spawn } from 'node:child_process';

export async function runChild<T>(script: string, args: string[], nodeFlags: string[] = [], env: NodeJS.ProcessEnv = process.env): Promise<T> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...nodeFlags, '--import', 'tsx', `bench/${script}`, ...args], {
      cwd: new URL('..', import.meta.url).pathname,
      env,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (d: Buffer) => { out += d.toString(); });
    child.once('error', reject);
    child.once('exit', (code) => {
      const last = out.trim().split('\n').pop() ?? '';
      if (code !== 0) return reject(new Error(`bench/${script} exited with ${code}: ${last.slice(0, 500)}`));
      try { resolve(JSON.parse(last) as T); } catch { reject(new Error(`bench/${script} printed no JSON result: ${last.slice(0, 500)}`)); }
    });
  });
}
