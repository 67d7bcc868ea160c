// The page's static files (src/web/ and uPlot's dist files), read once at start and kept in memory,
// each with its Content-Type, by the URL path that serves it.

import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, extname, join } from 'node:path';
import { projectPath } from '../core/project-root.ts';

export interface PageFile {
  body: Buffer;
  contentType: string;
}

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.ico': 'image/x-icon',
};

// From the checkout's root, so the compiled server (dist/) serves the same files as the TypeScript one.
const WEB_DIR = projectPath('src/web/');
const UPLOT_FILES = ['uPlot.esm.js', 'uPlot.min.css'];

let loaded: Map<string, PageFile> | null = null;

/** URL path → file: `/` (index.html), `/web/<file>` and `/vendor/uplot/<file>`. Read on first call only. */
export function pageFiles(): Map<string, PageFile> {
  if (loaded) return loaded;
  const files = new Map<string, PageFile>();
  const add = (urlPath: string, file: string): void => {
    const type = TYPES[extname(file)];
    if (type) files.set(urlPath, { body: readFileSync(file), contentType: type });
  };
  for (const name of readdirSync(WEB_DIR)) add(`/web/${name}`, join(WEB_DIR, name));
  const index = files.get('/web/index.html');
  if (!index) throw new Error(`The page's index.html is missing from ${WEB_DIR}`);
  files.set('/', index);
  const uplotDir = dirname(createRequire(import.meta.url).resolve('uplot/dist/uPlot.esm.js'));
  for (const name of UPLOT_FILES) add(`/vendor/uplot/${name}`, join(uplotDir, name));
  loaded = files;
  return files;
}
