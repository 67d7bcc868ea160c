// Whether dist/ (the compiled JavaScript of src/ and grammar/) is at least as new as every source file:
// the build writes dist/.built last; `npm start` and the CLI use dist/ only when it is fresh.

import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

export const ROOT = new URL('../..', import.meta.url).pathname;
export const STAMP = join(ROOT, 'dist', '.built');
const SOURCES = ['src', 'grammar'];

/**
 * The newest mtime of `dir`, its folders, its TypeScript files and build scripts (a file added,
 * removed or renamed changes its folder's). One readdir with types per folder: no stat of what is no source.
 */
function newestMtime(dir) {
  let newest = statSync(dir).mtimeMs;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const path = `${dir}/${e.name}`;
    if (e.isDirectory()) newest = Math.max(newest, newestMtime(path));
    else if (e.name.endsWith('.ts') || e.name.endsWith('.mjs')) newest = Math.max(newest, statSync(path).mtimeMs);
  }
  return newest;
}

/** True when dist/.built exists under `root` (tests give another) and no source is newer. */
export function distIsFresh(root = ROOT) {
  let built;
  try {
    built = statSync(join(root, 'dist', '.built')).mtimeMs;
  } catch {
    return false;
  }
  return statSync(join(root, 'tsconfig.json')).mtimeMs <= built && SOURCES.every((s) => newestMtime(join(root, s)) <= built);
}
