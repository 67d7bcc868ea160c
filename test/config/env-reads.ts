// Finds the environment variables a TypeScript source reads (`process.env.X`, `env.X`, `env['X']`,
// `xxxVar(env, 'X', ...)`, and quoted names in the config module's tables), for the config-coverage test.

import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

const VAR = '[A-Z][A-Z0-9]*_[A-Z0-9_]+|HOST|PORT';
const READS = [
  new RegExp(`\\benv\\.(${VAR})\\b`, 'g'),
  new RegExp(`\\benv\\[['"](${VAR})['"]\\]`, 'g'),
  new RegExp(`Var\\(env, '(${VAR})'`, 'g'),
];
const QUOTED = new RegExp(`'(${VAR})'`, 'g');

/** Names read by `code`; in the config module (`configModule`) every quoted variable-like name counts too. */
export function envReads(code: string, configModule = false): Set<string> {
  const out = new Set<string>();
  const noComments = code.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');
  for (const re of [...READS, ...(configModule ? [QUOTED] : [])]) for (const m of noComments.matchAll(re)) out.add(m[1]!);
  return out;
}

export function tsFiles(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...tsFiles(p));
    else if (/\.(ts|js)$/.test(name)) out.push(p);
  }
  return out;
}

export const readText = (p: string): string => readFileSync(p, 'utf8');
