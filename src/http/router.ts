// One small router: method + path pattern (`/api/endpoints/:idOrName`) → route. A path that some
// route matches under another method gives the allowed methods (405); otherwise nothing (404).

import { RingqlError } from '../core/errors.ts';

interface Compiled<R> {
  method: string;
  segments: string[];
  route: R;
}

export type RouteMatch<R> =
  | { kind: 'found'; route: R; params: Record<string, string> }
  | { kind: 'wrong_method'; allowed: string[] }
  | { kind: 'none' };

export class Router<R> {
  private readonly routes: Compiled<R>[] = [];

  add(method: string, pattern: string, route: R): this {
    this.routes.push({ method: method.toUpperCase(), segments: splitPath(pattern), route });
    return this;
  }

  /** `path` is the raw path; captured segments are percent-decoded (bad encoding → 400). HEAD matches GET routes. */
  match(method: string, path: string): RouteMatch<R> {
    const parts = splitPath(path);
    const allowed = new Set<string>();
    for (const r of this.routes) {
      const params = matchSegments(r.segments, parts);
      if (!params) continue;
      if (r.method === method || (method === 'HEAD' && r.method === 'GET')) return { kind: 'found', route: r.route, params: decodeParams(params) };
      allowed.add(r.method);
      if (r.method === 'GET') allowed.add('HEAD');
    }
    return allowed.size ? { kind: 'wrong_method', allowed: [...allowed] } : { kind: 'none' };
  }
}

/** Splits on `/`, ignoring one trailing slash (`/api/endpoints/` is `/api/endpoints`). */
function splitPath(path: string): string[] {
  const trimmed = path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path;
  return trimmed.split('/').slice(1);
}

function matchSegments(pattern: string[], parts: string[]): Record<string, string> | null {
  if (pattern.length !== parts.length) return null;
  let params: Record<string, string> | null = null;
  for (let i = 0; i < pattern.length; i++) {
    const p = pattern[i]!;
    const v = parts[i]!;
    if (p.startsWith(':')) {
      if (v === '') return null;
      (params ??= {})[p.slice(1)] = v;
    } else if (p !== v) return null;
  }
  return params ?? {};
}

function decodeParams(raw: Record<string, string>): Record<string, string> {
  for (const [k, v] of Object.entries(raw)) {
    if (!v.includes('%')) continue;
    try {
      raw[k] = decodeURIComponent(v);
    } catch {
      throw new RingqlError('invalid_parameter', `The path segment for ${k} has bad percent-encoding`, { param: k });
    }
  }
  return raw;
}
