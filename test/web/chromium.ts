// Finds Debian's chromium for the page test, installing it with apt-get when it is missing (CI runs
// as root with Debian reachable) and saying so on stderr; null when it truly cannot be had.

import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';

export const CHROMIUM = '/usr/bin/chromium';

export function ensureChromium(): string | null {
  if (existsSync(CHROMIUM)) return CHROMIUM;
  process.stderr.write(`page test: ${CHROMIUM} is missing; installing Debian's chromium with apt-get (needs root and a reachable mirror)\n`);
  try {
    execFileSync('apt-get', ['update'], { stdio: 'inherit', timeout: 300_000 });
    execFileSync('apt-get', ['install', '-y', '--no-install-recommends', 'chromium'], { stdio: 'inherit', timeout: 600_000, env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
  } catch (err) {
    process.stderr.write(`page test: apt-get could not install chromium: ${err instanceof Error ? err.message : String(err)}\n`);
  }
  return existsSync(CHROMIUM) ? CHROMIUM : null;
}
