// Shared helpers for the SQL front-end tests: golden inputs, and AST comparison without positions.

import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { goldenInputs } from '../golden/golden-files.ts';

export const AST_GOLDEN_DIR = fileURLToPath(new URL('../golden/ast/', import.meta.url));

/** Every golden SQL input as [file, text]. */
export function astGoldenInputs(): [string, string][] {
  return goldenInputs(AST_GOLDEN_DIR, '.sql').map((f) => [f, readFileSync(f, 'utf8')]);
}

/** A deep copy without `pos` keys or undefined values, for deep equality. */
export function stripPos(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(stripPos);
  if (v !== null && typeof v === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) if (k !== 'pos' && x !== undefined) out[k] = stripPos(x);
    return out;
  }
  return v;
}
