// The page driven in headless Chromium (puppeteer-core): sign in, run logs.all and see its rows,
// run usage.api-counts and see a chart, turn live updates on and see an ingested row arrive, and
// send bad sandbox SQL and see its line and column marked. Screenshots go to test/artifacts/.

import { mkdirSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import puppeteer, { type Browser, type Page } from 'puppeteer-core';
import { Store, defaultStoreConfig } from '../../src/store/store.ts';
import { createQueryService } from '../../src/endpoints/service.ts';
import { bearer, startTestServer, TOKENS, type TestServer } from '../http/helpers.ts';
import { ensureChromium } from './chromium.ts';

const ARTIFACTS = new URL('../artifacts/', import.meta.url);
const chromium = ensureChromium();
if (!chromium) {
  process.stderr.write('\n!!!!!!!! page test SKIPPED: Debian chromium is not installed and apt-get could not install it !!!!!!!!\n\n');
}

let server: TestServer;
let closeService: () => void;
let browser: Browser;
let page: Page;
let n = 0;

function edgeEvent(project: string, path: string, minutesAgo: number): Record<string, unknown> {
  n++;
  return {
    id: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
    timestamp: new Date(Date.now() - minutesAgo * 60_000).toISOString(),
    event_message: `GET ${path} 200 #${n}`,
    project,
    metadata: { request: { method: 'GET', path, url: `https://${project}.api.example.com${path}` }, response: { status_code: 200 } },
  };
}

async function ingest(events: Record<string, unknown>[]): Promise<void> {
  const r = await fetch(`${server.url}/api/logs?source_name=edge.logs.prod`, {
    method: 'POST', headers: { ...bearer(TOKENS.priv), 'Content-Type': 'application/json' }, body: JSON.stringify({ batch: events }),
  });
  expect(r.status).toBe(200);
}

const shot = (name: string) => page.screenshot({ path: new URL(`page-${name}.png`, ARTIFACTS).pathname as `${string}.png`, fullPage: true });

async function openEndpoint(name: string): Promise<void> {
  const [button] = await page.$$(`xpath/.//nav//button[text()="${name}"]`);
  await button!.click();
  // Browser-side code as text: the test's TypeScript program has no DOM types.
  await page.waitForFunction(`document.getElementById('endpoint-title')?.textContent === ${JSON.stringify(name)}`);
}

async function fill(selector: string, value: string): Promise<void> {
  await page.$eval(selector, (e, v) => { (e as unknown as { value: string }).value = v; }, value);
}

describe.skipIf(!chromium)('the page in headless Chromium', () => {
  beforeAll(async () => {
    mkdirSync(ARTIFACTS, { recursive: true });
    const service = await createQueryService({ store: new Store(defaultStoreConfig({})), stateDir: null, cache: { sweepMs: 0 } });
    server = await startTestServer(service);
    closeService = () => service.close();
    // alpha: 6 events over the last few minutes (3 REST, 2 auth, 1 storage); beta: 2 that alpha must not show.
    await ingest([
      edgeEvent('alpha', '/rest/v1/todos', 1), edgeEvent('alpha', '/rest/v1/todos', 2), edgeEvent('alpha', '/auth/v1/token', 3),
      edgeEvent('alpha', '/rest/v1/items', 4), edgeEvent('alpha', '/auth/v1/user', 5), edgeEvent('alpha', '/storage/v1/object', 6),
      edgeEvent('beta', '/rest/v1/todos', 1), edgeEvent('beta', '/rest/v1/todos', 2),
    ]);
    browser = await puppeteer.launch({ executablePath: chromium!, headless: true, args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'] });
    page = await browser.newPage();
    await page.setViewport({ width: 1200, height: 900 });
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
    closeService?.();
  });

  it('asks for a token, keeps it out of the URL, and lists the endpoints', async () => {
    await page.goto(`${server.url}/`, { waitUntil: 'load' });
    const paint = await page.evaluate(`performance.getEntriesByType('paint').map((e) => [e.name, Math.round(e.startTime)])`);
    process.stderr.write(`page test: paint timings (ms) ${JSON.stringify(paint)}\n`);
    await page.type('#token', TOKENS.priv);
    await page.keyboard.press('Enter');
    await page.waitForSelector('nav button.link');
    const names = await page.$$eval('nav button.link', (bs) => bs.map((b) => b.textContent));
    expect(names).toEqual(expect.arrayContaining(['logs.all', 'usage.api-counts']));
    expect(page.url()).not.toContain(TOKENS.priv);
    expect(await page.evaluate(`sessionStorage.getItem('ringql.token')`)).toBe(TOKENS.priv);
    await shot('endpoints');
  });

  it('runs logs.all and shows the project rows, newest first', async () => {
    await openEndpoint('logs.all');
    await fill('#param-project', 'alpha');
    await page.click('#run');
    await page.waitForSelector('#results tbody tr');
    const messages = await page.$$eval('#results tbody tr', (rows) => rows.map((r) => r.textContent ?? ''));
    expect(messages).toHaveLength(6);
    // Ingested with #1 newest (1 minute ago) to #6 oldest; logs.all is newest first.
    expect(messages.map((m) => /#(\d+)/.exec(m)?.[1])).toEqual(['1', '2', '3', '4', '5', '6']);
    expect(await page.$('#results details summary')).not.toBeNull(); // metadata is nested: expandable
    await shot('logs-all');
  });

  it('shows live rows when the live toggle is on', async () => {
    await page.click('#live');
    await page.waitForFunction(`document.getElementById('status')?.textContent?.startsWith('Live:')`);
    const fresh = edgeEvent('alpha', '/realtime/v1/websocket', 0);
    await ingest([fresh]);
    await page.waitForSelector('#results tbody tr.fresh', { timeout: 5000 });
    expect(await page.$eval('#results tbody tr.fresh', (r) => r.textContent)).toContain(String(fresh.event_message));
    await page.click('#live');
    await shot('live');
  });

  it('runs usage.api-counts and draws a chart', async () => {
    await openEndpoint('usage.api-counts');
    await page.select('#param-interval', 'minutely');
    await fill('#param-project', 'alpha');
    await page.click('#run');
    await page.waitForSelector('#chart:not([hidden]) canvas');
    const legend = await page.$$eval('#chart .u-legend th', (ths) => ths.map((t) => t.textContent?.trim()));
    expect(legend).toEqual(expect.arrayContaining(['total_rest_requests', 'total_storage_requests', 'total_auth_requests', 'total_realtime_requests']));
    await shot('usage-chart');
  });

  it('marks the line and column of a sandbox SQL error', async () => {
    await openEndpoint('logs.all');
    await fill('#param-project', 'alpha');
    // The stray `)` is the first token that cannot continue the query: line 3, column 7.
    await fill('#sql', 'select id\nfrom edge_logs\nwhere )');
    await page.click('#run');
    await page.waitForSelector('#sql-error .sql-mark mark');
    const mark = await page.evaluate(`(() => { const m = document.querySelector('#sql-error .sql-mark'); return { line: m.dataset.line, column: m.dataset.column, marked: m.querySelector('mark').textContent }; })()`);
    expect(mark).toEqual({ line: '3', column: '7', marked: ')' });
    expect(await page.$eval('#sql', (t) => t.getAttribute('aria-invalid'))).toBe('true');
    await shot('sandbox-error');
  });
});
