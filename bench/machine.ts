// What the benchmark ran on: CPU, cores, memory, Node, and whether wrk is available.

import { cpus, totalmem, platform, release } from 'node:os';
import { execFileSync } from 'node:child_process';

export interface Machine {
  cpu: string;
  cores: number;
  memoryGiB: number;
  node: string;
  os: string;
  wrk: string | null;
}

export function describeMachine(): Machine {
  let wrk: string | null = null;
  try {
    wrk = execFileSync('wrk', ['--version'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).split('\n')[0] ?? 'wrk';
  } catch (e) {
    const out = (e as { stdout?: string }).stdout ?? '';
    wrk = out.startsWith('wrk') ? out.split('\n')[0]! : null;
  }
  return {
    cpu: cpus()[0]?.model ?? 'unknown',
    cores: cpus().length,
    memoryGiB: Math.round(totalmem() / 2 ** 30),
    node: process.version,
    os: `${platform()} ${release()}`,
    wrk,
  };
}
