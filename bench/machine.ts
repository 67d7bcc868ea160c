// What the benchmark ran on: CPU, cores, memory, Node, whether wrk is available, and what a page fault costs.

import { cpus, totalmem, platform, release } from 'node:os';
import { execFileSync } from 'node:child_process';
import { INGEST_ADDON } from '../src/store/native-ingest.ts';
import { figure } from './stats.ts';

export interface Machine {
  cpu: string;
  cores: number;
  memoryGiB: number;
  node: string;
  os: string;
  wrk: string | null;
  /** µs of CPU per first touch of a fresh 4 KiB page, and per 4 KiB of a fresh 2 MiB huge page (pageFaultCost). */
  faultUs: { page: number; hugePer4k: number };
}

/** pageFaultCost's figures once measured (the probe takes ~1 s, and describeMachine is called more than once in a run). */
let faultCost: { page: number; hugePer4k: number } | null = null;

/**
 * CPU µs per first touch of fresh memory, median of 5 rounds over 64 MiB: in 4 KiB pages, and in huge pages
 * (adviseHugePages, per 4 KiB of them). On the Firecracker VMs of bench/INGEST.md round 15 a 4 KiB fault cost
 * ~10 µs, which every path that writes fresh memory pays: it explains part of the difference between this
 * file's runs on different machines. Measured once per process.
 */
export function pageFaultCost(): { page: number; hugePer4k: number } {
  if (faultCost !== null) return faultCost;
  const bytes = 64 * 2 ** 20;
  const round = (huge: boolean): number => {
    const buf = Buffer.allocUnsafeSlow(bytes);
    if (huge) INGEST_ADDON.adviseHugePages(buf);
    const f0 = process.resourceUsage().minorPageFault, t0 = process.cpuUsage();
    for (let i = 0; i < bytes; i += 4096) buf[i] = 1;
    const t = process.cpuUsage(t0), faults = process.resourceUsage().minorPageFault - f0;
    // A huge page's cost spread over the 4 KiB pages it holds; 4 KiB pages by the faults counted.
    return (t.user + t.system) / (huge ? bytes / 4096 : Math.max(1, faults));
  };
  const median = (huge: boolean): number => figure(Array.from({ length: 5 }, () => round(huge))).median;
  faultCost = { page: median(false), hugePer4k: median(true) };
  return faultCost;
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
    faultUs: pageFaultCost(),
  };
}
