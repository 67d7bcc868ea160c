// The page's static files (SPEC §3 `GET /`): served without a token, from memory, with the right
// Content-Type; uPlot's dist files beside them; nothing else under those paths.

import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { fakeService, startTestServer, type TestServer } from './helpers.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer(fakeService());
});
afterAll(() => server.close());

it('serves the page at / without a token, as HTML that loads its modules', async () => {
  const r = await fetch(`${server.url}/`);
  expect(r.status).toBe(200);
  expect(r.headers.get('content-type')).toBe('text/html; charset=utf-8');
  expect(r.headers.get('content-security-policy')).toContain("default-src 'self'");
  const html = await r.text();
  expect(html).toBe(readFileSync(new URL('../../src/web/index.html', import.meta.url), 'utf8'));
  expect(html).toContain('<script type="module" src="/web/app.js">');
});

it('serves each module, the stylesheet and uPlot with their content types', async () => {
  const cases: [string, string, string][] = [
    ['/web/app.js', 'text/javascript; charset=utf-8', '../../src/web/app.js'],
    ['/web/style.css', 'text/css; charset=utf-8', '../../src/web/style.css'],
    ['/vendor/uplot/uPlot.esm.js', 'text/javascript; charset=utf-8', '../../node_modules/uplot/dist/uPlot.esm.js'],
    ['/vendor/uplot/uPlot.min.css', 'text/css; charset=utf-8', '../../node_modules/uplot/dist/uPlot.min.css'],
  ];
  for (const [path, type, file] of cases) {
    const r = await fetch(`${server.url}${path}`);
    expect(r.status, path).toBe(200);
    expect(r.headers.get('content-type'), path).toBe(type);
    expect(await r.text(), path).toBe(readFileSync(new URL(file, import.meta.url), 'utf8'));
  }
});

it('answers 404 for files that are not part of the page, and for a live path without an upgrade', async () => {
  for (const path of ['/web/nope.js', '/vendor/uplot/uPlot.cjs.js', '/web/../package.json', '/api/endpoints/live/logs.all']) {
    const r = await fetch(`${server.url}${path}`);
    expect(r.status, path).toBe(404);
    expect(((await r.json()) as { error: { code: string } }).error.code, path).toBe('not_found');
  }
});
