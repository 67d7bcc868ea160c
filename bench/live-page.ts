// `npx tsx bench/live-page.ts`: the page's first contentful paint from a local server (headless
// Chromium, a fresh context per load) and live-subscription latency (ingest request sent → the
// append arriving) for 1 and 16 subscribers of logs.all at interval_ms=250. Prints medians and p90.

import puppeteer from 'puppeteer-core';
import { Store, defaultStoreConfig } from '../src/store/store.ts';
import { createQueryService } from '../src/endpoints/service.ts';
import { startServer } from '../src/http/server.ts';
import { tokenSet } from '../src/http/auth.ts';
import { connectWs, type WsClient } from '../test/helpers/ws-client.ts';
import { ensureChromium } from '../test/web/chromium.ts';

const LOADS = 15;
const INGESTS = 20;
const INTERVAL_MS = 250;
const TOKEN = 'bench-token';

const pct = (xs: number[], p: number): number => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(p * xs.length))]!;
const fmt = (xs: number[]): string => `median ${pct(xs, 0.5).toFixed(1)} ms, p90 ${pct(xs, 0.9).toFixed(1)} ms (n=${xs.length})`;

const service = await createQueryService({ store: new Store(defaultStoreConfig({})), stateDir: null });
const server = await startServer({
  service, host: '127.0.0.1', port: 0, tokens: tokenSet([{ token: TOKEN }]), corsOrigin: '*',
  maxBodyBytes: 1 << 20, maxUrlBytes: 65536, maxDecompressedBytes: 1 << 22, log: () => {},
});
const base = `http://127.0.0.1:${server.port}`;

async function paints(): Promise<number[]> {
  const chromium = ensureChromium();
  if (!chromium) { process.stderr.write('no chromium: page paint not measured\n'); return []; }
  const browser = await puppeteer.launch({ executablePath: chromium, headless: true, args: ['--no-sandbox', '--disable-gpu'] });
  const out: number[] = [];
  try {
    for (let i = 0; i < LOADS; i++) {
      const ctx = await browser.createBrowserContext();
      const page = await ctx.newPage();
      await page.goto(`${base}/`, { waitUntil: 'load' });
      const fcp = (await page.evaluate(`performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? -1`)) as number;
      if (fcp >= 0) out.push(fcp);
      await ctx.close();
    }
  } finally {
    await browser.close();
  }
  return out;
}

let n = 0;
const acks: number[] = [];
async function ingestOne(): Promise<void> {
  n++;
  const event = { id: `bench-${n}`, event_message: `GET /rest/v1/x ${n}`, project: 'bench', metadata: { request: { path: '/rest/v1/x', url: 'https://bench.example.com/rest/v1/x' } } };
  const r = await fetch(`${base}/api/logs?source_name=edge.logs.prod`, { method: 'POST', headers: { Authorization: `Bearer ${TOKEN}`, 'Content-Type': 'application/json' }, body: JSON.stringify([event]) });
  if (r.status !== 200) throw new Error(`ingest answered ${r.status}`);
}

async function latency(subscribers: number): Promise<number[]> {
  const clients: WsClient[] = [];
  for (let i = 0; i < subscribers; i++) {
    const ws = await connectWs(server.port, `/api/endpoints/live/logs.all?project=bench&interval_ms=${INTERVAL_MS}&api_key=${TOKEN}`);
    await ws.next();
    clients.push(ws);
  }
  const out: number[] = [];
  acks.length = 0;
  for (let i = 0; i < INGESTS; i++) {
    // Past the interval since the last message, so the rate limit does not delay this one: what is
    // measured is how soon an update follows its events (a timer alone would average half an interval).
    await new Promise((r) => setTimeout(r, INTERVAL_MS + 20 + Math.random() * INTERVAL_MS));
    const t0 = performance.now();
    const acked = ingestOne().then(() => acks.push(performance.now() - t0));
    await Promise.all([acked, ...clients.map(async (ws) => { await ws.next(5000); out.push(performance.now() - t0); })]);
  }
  for (const ws of clients) ws.close();
  return out;
}

const fcp = await paints();
if (fcp.length) console.log(`page first contentful paint: ${fmt(fcp)}`);
for (const subs of [1, 16]) {
  const appends = await latency(subs);
  console.log(`${subs} subscriber(s) of logs.all, interval_ms=${INTERVAL_MS}, from sending the ingest: its 200 ${fmt(acks)}; the append ${fmt(appends)}`);
}
await server.close();
service.close();
