// Bucket-cache states count against RINGQL_CACHE_MAX_BYTES with the result entries and show in /health:
// a new state that would pass the cap drops the least recently used states (never the one in use).

import { describe, expect, it } from 'vitest';
import { Store, defaultStoreConfig } from '../../src/store/store.ts';
import { createQueryService } from '../../src/endpoints/service.ts';

const MINUTE = 60_000_000;

async function setup(maxBytes: number) {
  const now = Date.UTC(2025, 0, 15, 12) * 1000;
  const svc = await createQueryService({ store: new Store(defaultStoreConfig({})), stateDir: null, nowMicros: () => now, cache: { sweepMs: 0, maxBytes } });
  // One edge event a minute for three days: each project's daily state holds ~1,440 minutes.
  const events = Array.from({ length: 3 * 1440 }, (_, i) => ({
    id: `e${i}`, timestamp: now - (i + 1) * MINUTE, project: 'p', event_message: 'GET',
    metadata: { request: { url: `https://p${i % 3}.example.com/rest/v1/x`, path: '/rest/v1/x' } },
  }));
  svc.ingest('edge.logs.prod', events);
  const run = (project: string) => svc.run({ endpoint: 'usage.api-counts', params: new Map([['interval', 'daily'], ['project', project]]), redactHeader: false });
  return { svc, run };
}

describe('bucket-cache bytes', () => {
  it('are estimated, shown in /health and kept under RINGQL_CACHE_MAX_BYTES by dropping the oldest states', async () => {
    const roomy = await setup(256 * 1024 * 1024);
    await roomy.run('p0');
    const one = roomy.svc.cache.stats().bucket_bytes;
    expect(one).toBeGreaterThan(1000 * 80);
    expect((roomy.svc.health() as { cache: { bucket_bytes: number } }).cache.bucket_bytes).toBe(one);
    await roomy.run('p1');
    expect(roomy.svc.cache.stats().bucket_states).toBe(2);
    roomy.svc.close();

    const tight = await setup(Math.floor(one * 1.5));
    const first = await tight.run('p0');
    const second = await tight.run('p1');
    const s = tight.svc.cache.stats();
    expect(s.bucket_states).toBe(1);
    expect(s.bucket_bytes + s.bytes).toBeLessThanOrEqual(Math.floor(one * 1.5));
    // Answers are still exact: the dropped state is rebuilt on its next request.
    const again = await tight.run('p0');
    expect(again.body.toString()).toBe(first.body.toString());
    expect(second.body.toString()).not.toBe('');
    tight.svc.close();
  });
});
