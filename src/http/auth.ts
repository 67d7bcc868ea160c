// Access tokens (SPEC §3 Authentication): parsed from RINGQL_ACCESS_TOKENS or generated once,
// read from Bearer header, X-API-KEY, then ?api_key, compared in constant time, checked per scope.

import { randomBytes } from 'node:crypto';
import { RingqlError } from '../core/errors.ts';
import { parseTokenList, tokenSpecsFromEnv, type Scope, type TokenSpec } from '../core/config-tokens.ts';

export type { Scope } from '../core/config-tokens.ts';

/** What a route needs: `public` no token, `any` any valid token, else that scope (or `private`). */
export type Access = 'public' | 'any' | Scope;

interface TokenEntry {
  token: string;
  scopes: ReadonlySet<Scope>;
}

export interface TokenSet {
  readonly entries: readonly TokenEntry[];
  /** The token made at start because none was configured; main prints it once. */
  readonly generated: string | null;
}

export function tokenSet(tokens: { token: string; scopes?: Scope[] }[], generated: string | null = null): TokenSet {
  return {
    entries: tokens.map((t) => ({ token: t.token, scopes: new Set(t.scopes?.length ? t.scopes : ['private']) })),
    generated,
  };
}

/** The tokens of the environment (see core/config-tokens.ts); with none, one generated private token. */
export function tokensFromEnv(env: Record<string, string | undefined>): TokenSet {
  return tokensFromSpecs(tokenSpecsFromEnv(env));
}

/** A token set from configured entries; null makes one generated private token (printed once by main). */
export function tokensFromSpecs(specs: TokenSpec[] | null): TokenSet {
  if (specs !== null) return tokenSet(specs);
  const token = randomBytes(32).toString('base64url');
  return tokenSet([{ token, scopes: ['private'] }], token);
}

/** Parses `token` / `token:scope+scope` entries, comma-separated; unset or blank makes one private token. */
export function parseAccessTokens(value: string | undefined, varName = 'RINGQL_ACCESS_TOKENS'): TokenSet {
  return tokensFromSpecs(parseTokenList(value, varName));
}

/** The first token present: `Authorization: Bearer`, then `X-API-KEY`, then `api_key` in the query. */
export function presentedToken(authorization: string, apiKey: string, query: Map<string, string>): string | null {
  const m = authorization === '' ? null : /^\s*bearer\s+(\S+)\s*$/i.exec(authorization);
  if (m) return m[1]!;
  const key = apiKey === '' ? '' : apiKey.trim();
  if (key !== '') return key;
  const q = query.get('api_key');
  return q ? q : null;
}

function grants(scopes: ReadonlySet<Scope>, access: Access): boolean {
  if (access === 'public' || access === 'any' || scopes.has('private')) return true;
  return scopes.has(access);
}

/** Throws 401 for a missing or unknown token, 403 for a known token without the needed scope. */
export function authorize(tokens: TokenSet, presented: string | null, access: Access): void {
  if (access === 'public') return;
  if (presented === null) {
    throw new RingqlError('unauthorized', 'An access token is required: send "Authorization: Bearer <token>", an X-API-KEY header or ?api_key=');
  }
  let scopes: ReadonlySet<Scope> | null = null;
  // Every entry is compared, with no early exit, so timing tells nothing about which one matched.
  for (const e of tokens.entries) {
    if (sameToken(presented, e.token) && scopes === null) scopes = e.scopes;
  }
  if (scopes === null) throw new RingqlError('unauthorized', 'The access token is not valid');
  if (!grants(scopes, access)) {
    const allowed = access === 'any' || access === 'private' ? ['private'] : [access, 'private'];
    throw new RingqlError('forbidden', `This token lacks the scope this route needs (one of: ${allowed.join(', ')})`, { allowed });
  }
}

/**
 * Whether `presented` is `token`, in time that depends on the presented length only: every presented
 * code unit is compared (against the token's, cycled), differences are OR-ed, nothing exits early.
 * Hashing both first (sha256) did the same at about a microsecond per request on the hit path.
 */
export function sameToken(presented: string, token: string): boolean {
  const n = presented.length;
  const m = token.length;
  let diff = n ^ m;
  if (m === 0) return false;
  for (let i = 0, j = 0; i < n; i++) {
    diff |= presented.charCodeAt(i) ^ token.charCodeAt(j);
    j = j + 1 === m ? 0 : j + 1;
  }
  return diff === 0;
}
