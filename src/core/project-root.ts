// The checkout's root folder (where package.json lives), found from this file's place, so paths such as
// data/endpoints and the default .state/ are the same whether src/ runs as TypeScript or as dist/ JS.

import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

function findRoot(from: string): string {
  for (let dir = from; ; ) {
    if (existsSync(join(dir, 'package.json'))) return dir;
    const up = dirname(dir);
    if (up === dir) throw new Error(`no package.json above ${from}`);
    dir = up;
  }
}

/** Absolute path of the checkout's root, without a trailing separator. */
export const PROJECT_ROOT = findRoot(dirname(fileURLToPath(import.meta.url)));

/** `relative` (e.g. `data/endpoints/`) resolved against the checkout's root. */
export function projectPath(relative: string): string {
  return join(PROJECT_ROOT, relative);
}
