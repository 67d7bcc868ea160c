// Runs the reference's LQL test strings (test/lql/corpus/) through ringql's compiler: each over a
// table of unknown columns named by its f:/from: term (or `logs`), printed as one SQL line.

import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { compileLql } from '../../src/lql/compile.ts';
import { printSql } from '../../src/sql/print.ts';
import { RingqlError } from '../../src/core/errors.ts';

export const CORPUS_DIR = fileURLToPath(new URL('./corpus/', import.meta.url));

/** How the reference treats a string; `schema`: its answer depends on a schema ringql's LQL does not have. */
export type ReferenceOutcome = 'ok' | 'error' | 'schema';
/**
 * right: same meaning (or both reject); unsupported: the reference accepts, ringql rejects; different:
 * both accept with another meaning, or ringql accepts what the reference rejects; schema: not counted.
 */
export type Verdict = 'right' | 'unsupported' | 'different' | 'schema';

export interface CorpusEntry {
  lql: string;
  from: string;
  reference: ReferenceOutcome;
  verdict: Verdict;
  note?: string;
}

export function corpus(): CorpusEntry[] {
  return JSON.parse(readFileSync(`${CORPUS_DIR}reference-lql.json`, 'utf8')) as CorpusEntry[];
}

/** The table an entry reads: the name its f:/from: term gives, else `logs`; columns unknown (schema-free). */
function tableOf(lql: string): string {
  return /(?:^|\s)(?:from|f):([A-Za-z0-9_]+)/.exec(lql)?.[1] ?? 'logs';
}

/** `SQL` on one line, or `error <code>`. */
export function ringqlAnswer(lql: string): string {
  try {
    return printSql(compileLql(lql, [{ name: tableOf(lql), columns: [] }])).replace(/\s+/g, ' ').trim();
  } catch (e) {
    if (e instanceof RingqlError) return `error ${e.code}`;
    throw e;
  }
}
