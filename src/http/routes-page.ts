// The page (SPEC §3 `GET /`): its static files from memory, with no token (the page asks for one and
// calls the API like any client); a strict Content-Security-Policy keeps it to its own origin.

import type { PageFile } from './page-files.ts';
import type { Route } from './route.ts';
import type { Router } from './router.ts';

const PAGE_HEADERS: [string, string][] = [
  ['Cache-Control', 'no-cache'],
  ['X-Content-Type-Options', 'nosniff'],
  ['Referrer-Policy', 'no-referrer'],
  ['Content-Security-Policy', "default-src 'self'; connect-src 'self' ws: wss:; img-src 'self' data:; style-src 'self' 'unsafe-inline'; frame-ancestors 'none'"],
];

export function addPageRoutes(router: Router<Route>, files: ReadonlyMap<string, PageFile>): void {
  for (const [path, file] of files) {
    router.add('GET', path, {
      access: 'public',
      readsBody: false,
      handle: () => ({ status: 200, body: file.body, contentType: file.contentType, headers: PAGE_HEADERS }),
    });
  }
}
