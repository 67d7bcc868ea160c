// Access tokens (SPEC §3 Authentication): parsed from RINGQL_ACCESS_TOKENS or generated once,
// read from Bearer header, X-API-KEY, then ?api_key, compared in constant time, checked per scope.

import { hash, randomBytes, timingSafeEqual } from 'node:crypto';
import { RingqlError } from '../core/errors.ts';

export type Scope = 'ingest' | 'query' | 'private';
const SCOPES: readonly Scope[] = ['ingest', 'query', 'private'];

/** What a route needs: `public` no token, `any` any valid token, else that scope (or `private`). */
export type Access = 'public' | 'any' | Scope;

interface TokenEntry {
  digest: Buffer;
  scopes: ReadonlySet<Scope>;
}

export interface TokenSet {
  readonly entries: readonly TokenEntry[];
  /** The token made at start because none was configured; main prints it once. */
  readonly generated: string | null;
}

const digestOf = (token: string): Buffer => hash('sha256', token, 'buffer');

export function tokenSet(tokens: { token: string; scopes?: Scope[] }[], generated: string | null = null): TokenSet {
  return {
    entries: tokens.map((t) => ({ digest: digestOf(t.token), scopes: new Set(t.scopes?.length ? t.scopes : ['private']) })),
    generated,
  };
}

/**
 * Parses `token` / `token:scope+scope` entries, comma-separated; unset or blank makes one private
 * token. Errors name the variable and the entry's position, never the token itself.
 */
/**
 * The tokens of the environment: RINGQL_ACCESS_TOKENS, or where it is unset the reference's names, so a
 * self-hosted stack's configuration works unchanged (LOGFLARE_PRIVATE_ACCESS_TOKEN is private,
 * LOGFLARE_PUBLIC_ACCESS_TOKEN ingest+query); with none of them, one generated private token.
 */
export function tokensFromEnv(env: Record<string, string | undefined>): TokenSet {
  if ((env.RINGQL_ACCESS_TOKENS ?? '').trim() !== '') return parseAccessTokens(env.RINGQL_ACCESS_TOKENS);
  const priv = (env.LOGFLARE_PRIVATE_ACCESS_TOKEN ?? '').trim();
  const pub = (env.LOGFLARE_PUBLIC_ACCESS_TOKEN ?? '').trim();
  for (const [name, v] of [['LOGFLARE_PRIVATE_ACCESS_TOKEN', priv], ['LOGFLARE_PUBLIC_ACCESS_TOKEN', pub]] as const) {
    if (/[\s,]/.test(v)) throw new Error(`${name} must be one token without spaces or commas`);
  }
  const entries: { token: string; scopes: Scope[] }[] = [];
  if (priv) entries.push({ token: priv, scopes: ['private'] });
  if (pub) entries.push({ token: pub, scopes: ['ingest', 'query'] });
  return entries.length ? tokenSet(entries) : parseAccessTokens(undefined);
}

export function parseAccessTokens(value: string | undefined, varName = 'RINGQL_ACCESS_TOKENS'): TokenSet {
  if (value === undefined || value.trim() === '') {
    const token = randomBytes(32).toString('base64url');
    return tokenSet([{ token, scopes: ['private'] }], token);
  }
  const parsed: { token: string; scopes: Scope[] }[] = [];
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
  return tokenSet(parsed);
}

/** The first token present: `Authorization: Bearer`, then `X-API-KEY`, then `api_key` in the query. */
export function presentedToken(authorization: string, apiKey: string, query: Map<string, string>): string | null {
  const m = /^\s*bearer\s+(\S+)\s*$/i.exec(authorization);
  if (m) return m[1]!;
  if (apiKey.trim() !== '') return apiKey.trim();
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
  const digest = digestOf(presented);
  let scopes: ReadonlySet<Scope> | null = null;
  // Every entry is compared, with no early exit, so timing tells nothing about which one matched.
  for (const e of tokens.entries) {
    if (timingSafeEqual(digest, e.digest) && scopes === null) scopes = e.scopes;
  }
  if (scopes === null) throw new RingqlError('unauthorized', 'The access token is not valid');
  if (!grants(scopes, access)) {
    const allowed = access === 'any' || access === 'private' ? ['private'] : [access, 'private'];
    throw new RingqlError('forbidden', `This token lacks the scope this route needs (one of: ${allowed.join(', ')})`, { allowed });
  }
}
