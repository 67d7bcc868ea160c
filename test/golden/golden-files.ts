// Golden-file plumbing: read inputs and expectations, or rewrite the expectations when
// UPDATE_GOLDEN=1 is set (then read the diff before committing).

import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const UPDATE = process.env.UPDATE_GOLDEN === '1';

export function goldenInputs(dir: string, ext: string): string[] {
  return readdirSync(dir).filter((f) => f.endsWith(ext)).sort().map((f) => join(dir, f));
}

/** Returns the expected text, writing `actual` first when updating. */
export function expectedFor(file: string, actual: string): string | null {
  if (UPDATE) writeFileSync(file, actual);
  return existsSync(file) ? readFileSync(file, 'utf8') : null;
}

export interface SltCase {
  name: string;
  sql: string;
  expected: string;
  params: Map<string, string>;
}

/**
 * `.slt` files: cases separated by blank lines; each is `query <name> [k=v ...]`, the SQL, a line
 * `----`, and the expected output (a JSON body, or `error <code>`).
 */
export function parseSlt(text: string): SltCase[] {
  const cases: SltCase[] = [];
  for (const block of text.split(/\n\s*\n(?=query )/)) {
    const lines = block.trim().split('\n');
    if (!lines.length || !lines[0]!.startsWith('query ')) continue;
    const [, name, ...kv] = lines[0]!.split(/\s+/);
    const sep = lines.indexOf('----');
    if (sep < 0) throw new Error(`slt case ${name}: missing ----`);
    cases.push({
      name: name!,
      sql: lines.slice(1, sep).join('\n'),
      expected: lines.slice(sep + 1).join('\n').trim(),
      params: new Map(kv.map((p) => [p.slice(0, p.indexOf('=')), decodeURIComponent(p.slice(p.indexOf('=') + 1))])),
    });
  }
  return cases;
}

export function printSlt(cases: SltCase[]): string {
  return cases.map((c) => `query ${c.name}${[...c.params].map(([k, v]) => ` ${k}=${encodeURIComponent(v)}`).join('')}\n${c.sql}\n----\n${c.expected}\n`).join('\n');
}
