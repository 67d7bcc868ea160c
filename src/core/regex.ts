// Compiled RE2 regular expressions with BigQuery semantics (REGEXP_CONTAINS/EXTRACT/EXTRACT_ALL/REPLACE).
// RE2 guarantees linear time; literal patterns take plain string fast paths, and compiled patterns are cached.

import { LRUMapWithDelete } from './lru.ts';
import { RingqlError } from './errors.ts';
import { loadRe2, type Re2Ctor, type Re2Instance } from './re2-loader.ts';

/** A compiled pattern. Every method takes the whole subject string (UTF-16 indices, as RE2 reports them). */
export interface CompiledRegex {
  readonly pattern: string;
  /** How the pattern is evaluated: a literal fast path or the RE2 engine. */
  readonly strategy: 'includes' | 'startsWith' | 'endsWith' | 'equals' | 're2';
  readonly groupCount: number;
  /** REGEXP_CONTAINS: a match anywhere. */
  test(s: string): boolean;
  /** REGEXP_EXTRACT: the first capture group (or the whole match) of the `occurrence`-th match at or after `position` (1-based). */
  extract(s: string, position?: number, occurrence?: number): string | null;
  /** REGEXP_EXTRACT_ALL: every non-overlapping match (group 1 when the pattern has one). */
  extractAll(s: string): string[];
  /** REGEXP_REPLACE: every match replaced; `\0`..`\9` insert groups, `\\` a backslash. */
  replace(s: string, replacement: string): string;
}

const RE2: Re2Ctor = loadRe2();

const MAX_PATTERN_LENGTH = 8192;
const CACHE_ENTRIES = 512;
const cache = new LRUMapWithDelete<string, CompiledRegex>(CACHE_ENTRIES);

/**
 * Where a pattern comes from: the query text or a request parameter (`query`, the caller's own text,
 * quoted in errors) or a row value (`row`: never quoted, nor is RE2's fragment of it).
 */
export type PatternOrigin = 'query' | 'row';

/** Compiles (or fetches from the cache) a pattern; an invalid one is a query_error (naming the pattern only if it is the query's). */
export function compileRegex(pattern: string, origin: PatternOrigin = 'query'): CompiledRegex {
  const hit = cache.get(pattern);
  if (hit) return hit;
  const re = build(pattern, origin);
  cache.set(pattern, re);
  return re;
}

function invalid(pattern: string, why: string, origin: PatternOrigin): RingqlError {
  if (origin === 'row') {
    // RE2 says `<what>: <fragment of the pattern>`; keep only the what.
    const what = why.split(': ')[0]!;
    return new RingqlError('query_error', `Invalid regular expression taken from a row value: ${what} (the pattern is not shown: errors never quote row data)`);
  }
  const shown = pattern.length > 200 ? pattern.slice(0, 200) + '…' : pattern;
  return new RingqlError('query_error', `Invalid regular expression "${shown}": ${why}`, { pattern: shown });
}

function build(pattern: string, origin: PatternOrigin): CompiledRegex {
  if (pattern.length > MAX_PATTERN_LENGTH) throw invalid(pattern, `pattern longer than ${MAX_PATTERN_LENGTH} characters`, origin);
  let re: Re2Instance;
  try {
    re = new RE2(pattern, 'u');
  } catch (e) {
    throw invalid(pattern, e instanceof Error ? e.message : String(e), origin);
  }
  const groupCount = countGroups(re);
  const literal = literalShape(pattern);
  return literal ? new LiteralRegex(pattern, literal, groupCount, re) : new Re2Regex(pattern, re, groupCount);
}

/** Number of capture groups: an empty-string match reports them all (as undefined). */
function countGroups(re: Re2Instance): number {
  const probe = new RE2(`(?:${re.source})|`, 'u');
  const m = probe.exec('');
  return m ? m.length - 1 : 0;
}

interface LiteralShape { text: string; kind: 'includes' | 'startsWith' | 'endsWith' | 'equals' }

/** Recognises `lit`, `^lit`, `lit$`, `^lit$` where lit holds only plain characters or escaped punctuation. */
export function literalShape(pattern: string): LiteralShape | null {
  let i = 0;
  let end = pattern.length;
  const anchoredStart = pattern.startsWith('^');
  if (anchoredStart) i = 1;
  let anchoredEnd = false;
  if (end > i && pattern[end - 1] === '$' && !escapedAt(pattern, end - 1)) { anchoredEnd = true; end--; }
  let text = '';
  for (; i < end; i++) {
    const c = pattern[i]!;
    if (c === '\\') {
      const n = pattern[i + 1];
      if (n === undefined || i + 1 >= end || /[0-9A-Za-z\s]/.test(n)) return null;
      text += n;
      i++;
    } else if ('^$.|?*+()[]{}'.includes(c)) return null;
    else text += c;
  }
  const kind = anchoredStart && anchoredEnd ? 'equals' : anchoredStart ? 'startsWith' : anchoredEnd ? 'endsWith' : 'includes';
  return { text, kind };
}

function escapedAt(p: string, idx: number): boolean {
  let n = 0;
  for (let j = idx - 1; j >= 0 && p[j] === '\\'; j--) n++;
  return n % 2 === 1;
}

function checkSingleGroup(re: { pattern: string; groupCount: number }): void {
  if (re.groupCount > 1) {
    // Not quoting the pattern: a cached compiled pattern may have come from a row value.
    throw new RingqlError('query_error', `Regular expressions passed into extraction functions must not have more than 1 capturing group; this one has ${re.groupCount}`);
  }
}

function checkPosition(position: number, occurrence: number): void {
  if (!Number.isInteger(position) || position < 1) throw new RingqlError('query_error', `REGEXP_EXTRACT position must be a positive integer, got ${position}`);
  if (!Number.isInteger(occurrence) || occurrence < 1) throw new RingqlError('query_error', `REGEXP_EXTRACT occurrence must be a positive integer, got ${occurrence}`);
}

/** Expands a BigQuery replacement string for one match. */
function expandReplacement(replacement: string, groups: (string | undefined)[]): string {
  if (!replacement.includes('\\')) return replacement;
  let out = '';
  for (let i = 0; i < replacement.length; i++) {
    const c = replacement[i]!;
    if (c !== '\\') { out += c; continue; }
    const n = replacement[i + 1];
    if (n === undefined) throw new RingqlError('query_error', 'REGEXP_REPLACE replacement ends with a lone backslash');
    i++;
    if (n === '\\') out += '\\';
    else if (n >= '0' && n <= '9') {
      const g = Number(n);
      if (g >= groups.length) throw new RingqlError('query_error', `REGEXP_REPLACE replacement refers to group \\${g}, but the pattern has ${groups.length - 1} capturing group(s)`);
      out += groups[g] ?? '';
    } else throw new RingqlError('query_error', `REGEXP_REPLACE replacement has an invalid escape \\${n}; use \\\\ for a backslash`);
  }
  return out;
}

/** Walks every non-overlapping match; after an empty match it steps one code point, as RE2's global matching does. */
function* matches(re: Re2Instance, s: string, from = 0): Generator<RegExpExecArray> {
  re.lastIndex = from;
  while (re.lastIndex <= s.length) {
    const m = re.exec(s);
    if (!m) return;
    yield m;
    if (m[0].length === 0) {
      const cp = s.codePointAt(m.index);
      re.lastIndex = m.index + (cp !== undefined && cp > 0xffff ? 2 : 1);
    } else re.lastIndex = m.index + m[0].length;
  }
}

class Re2Regex implements CompiledRegex {
  readonly strategy = 're2' as const;
  private readonly global: Re2Instance;
  constructor(readonly pattern: string, private readonly re: Re2Instance, readonly groupCount: number) {
    this.global = new RE2(re.source, 'gu');
  }
  test(s: string): boolean { return this.re.test(s); }
  extract(s: string, position = 1, occurrence = 1): string | null {
    checkSingleGroup(this);
    checkPosition(position, occurrence);
    if (position > s.length) return null;
    let k = 0;
    for (const m of matches(this.global, s, position - 1)) {
      if (++k === occurrence) return (this.groupCount === 1 ? m[1] : m[0]) ?? null;
    }
    return null;
  }
  extractAll(s: string): string[] {
    checkSingleGroup(this);
    const out: string[] = [];
    for (const m of matches(this.global, s)) out.push((this.groupCount === 1 ? m[1] : m[0]) ?? '');
    return out;
  }
  replace(s: string, replacement: string): string {
    let out = '';
    let last = 0;
    for (const m of matches(this.global, s)) {
      out += s.slice(last, m.index) + expandReplacement(replacement, m as unknown as (string | undefined)[]);
      last = m.index + m[0].length;
    }
    return out + s.slice(last);
  }
}

/** A pattern without metacharacters: plain string search, identical results to RE2 on it. */
class LiteralRegex implements CompiledRegex {
  readonly strategy: LiteralShape['kind'];
  private readonly fallback: Re2Regex;
  constructor(readonly pattern: string, private readonly shape: LiteralShape, readonly groupCount: number, re: Re2Instance) {
    this.strategy = shape.kind;
    this.fallback = new Re2Regex(pattern, re, groupCount);
  }
  test(s: string): boolean {
    const t = this.shape.text;
    switch (this.shape.kind) {
      case 'includes': return s.includes(t);
      case 'startsWith': return s.startsWith(t);
      case 'endsWith': return s.endsWith(t);
      case 'equals': return s === t;
    }
  }
  extract(s: string, position = 1, occurrence = 1): string | null {
    if (this.shape.kind !== 'includes' || this.shape.text === '') return this.fallback.extract(s, position, occurrence);
    checkPosition(position, occurrence);
    let at = position - 1;
    if (at > s.length) return null;
    for (let k = 1; ; k++) {
      const i = s.indexOf(this.shape.text, at);
      if (i < 0) return null;
      if (k === occurrence) return this.shape.text;
      at = i + this.shape.text.length;
    }
  }
  extractAll(s: string): string[] {
    if (this.shape.kind !== 'includes' || this.shape.text === '') return this.fallback.extractAll(s);
    const out: string[] = [];
    const t = this.shape.text;
    for (let i = s.indexOf(t); i >= 0; i = s.indexOf(t, i + t.length)) out.push(t);
    return out;
  }
  replace(s: string, replacement: string): string {
    if (this.shape.kind !== 'includes' || this.shape.text === '') return this.fallback.replace(s, replacement);
    const r = expandReplacement(replacement, [this.shape.text]);
    return s.split(this.shape.text).join(r);
  }
}

/** Patterns currently compiled and cached (bounded by CACHE_ENTRIES). */
export function regexCacheSize(): number {
  return cache.size;
}
