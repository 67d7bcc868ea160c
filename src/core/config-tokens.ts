// The access-token variables (SPEC §3, §9): RINGQL_ACCESS_TOKENS entries `token[:scope+scope]`, or where
// it is unset the reference's LOGFLARE_PRIVATE/PUBLIC_ACCESS_TOKEN; errors never echo a token.

import type { Env } from './config-parse.ts';

export type Scope = 'ingest' | 'query' | 'private';
export const SCOPES: readonly Scope[] = ['ingest', 'query', 'private'];

export interface TokenSpec {
  token: string;
  scopes: Scope[];
}

/** Entries of a `token[:scope+scope],...` list; null when blank (one token is then generated). */
export function parseTokenList(value: string | undefined, varName = 'RINGQL_ACCESS_TOKENS'): TokenSpec[] | null {
  if (value === undefined || value.trim() === '') return null;
  const parsed: TokenSpec[] = [];
  value.split(',').forEach((raw, i) => {
    const entry = raw.trim();
    if (entry === '') return;
    const colon = entry.indexOf(':');
    const token = colon < 0 ? entry : entry.slice(0, colon).trim();
    if (token === '') throw new Error(`${varName}: entry ${i + 1} has an empty token`);
    const scopes: Scope[] = [];
    if (colon >= 0) {
      for (const s of entry.slice(colon + 1).split('+')) {
        const scope = s.trim().toLowerCase();
        if (!(SCOPES as readonly string[]).includes(scope)) {
          throw new Error(`${varName}: entry ${i + 1} has an invalid scope "${scope.slice(0, 40)}"; scopes are ${SCOPES.join(', ')}`);
        }
        scopes.push(scope as Scope);
      }
    }
    parsed.push({ token, scopes });
  });
  if (parsed.length === 0) throw new Error(`${varName} lists no token`);
  return parsed;
}

/**
 * The configured tokens: RINGQL_ACCESS_TOKENS, or where it is unset the reference's names
 * (LOGFLARE_PRIVATE_ACCESS_TOKEN is private, LOGFLARE_PUBLIC_ACCESS_TOKEN ingest+query); null for none.
 */
export function tokenSpecsFromEnv(env: Env): TokenSpec[] | null {
  if ((env.RINGQL_ACCESS_TOKENS ?? '').trim() !== '') return parseTokenList(env.RINGQL_ACCESS_TOKENS);
  const priv = (env.LOGFLARE_PRIVATE_ACCESS_TOKEN ?? '').trim();
  const pub = (env.LOGFLARE_PUBLIC_ACCESS_TOKEN ?? '').trim();
  for (const [name, v] of [['LOGFLARE_PRIVATE_ACCESS_TOKEN', priv], ['LOGFLARE_PUBLIC_ACCESS_TOKEN', pub]] as const) {
    if (/[\s,]/.test(v)) throw new Error(`${name} must be one token without spaces or commas`);
  }
  const entries: TokenSpec[] = [];
  if (priv) entries.push({ token: priv, scopes: ['private'] });
  if (pub) entries.push({ token: pub, scopes: ['ingest', 'query'] });
  return entries.length ? entries : null;
}
