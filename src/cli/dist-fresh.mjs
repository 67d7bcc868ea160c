// Whether dist/ (the compiled JavaScript of src/ and grammar/) is at least as new as every source file:
// the build writes dist/.built last; `npm start` and the CLI use dist/ only when it is fresh.

import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

export const ROOT = new URL('../..', import.meta.url).pathname;
export const STAMP = join(ROOT, 'dist', '.built');
const SOURCES = ['src', 'grammar', 'tsconfig.json'];

function newestMtime(path) {
  const st = statSync(path);
  if (!st.isDirectory()) return st.mtimeMs;
  let newest = st.mtimeMs;
  for (const name of readdirSync(path)) newest = Math.max(newest, newestMtime(join(path, name)));
  return newest;
}

/** True when dist/.built exists and no source is newer. */
export function distIsFresh() {
  let built;
  try {
    built = statSync(STAMP).mtimeMs;
  } catch {
    return false;
  }
  return SOURCES.every((s) => newestMtime(join(ROOT, s)) <= built);
}
