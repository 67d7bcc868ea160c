// The HTTP phase: ringql's server in a child process, ingest over HTTP while queries run, then wrk on
// logs.all default and a cached usage.api-counts next to raw uWebSockets.js serving the same bytes.

import { startRingql, startRaw, httpIngest, get, load, type LoadFigure } from './http-bench.ts';
import type { DataFile } from './data.ts';
import { progress } from './stats.ts';

export interface HttpFigures {
  ingest: { events: number; bytes: number; ms: number; queriesDuring: number };
  pairs: { name: string; bytes: number; ringql: LoadFigure; raw: LoadFigure; cacheHeader: string }[];
}

export async function httpRun(data: DataFile, project: string, seconds: number): Promise<HttpFigures> {
  const server = await startRingql(Math.max(10_000_000, data.events));
  try {
    // Queries keep running while the data is ingested (one at a time, as a dashboard would poll).
    let polling = true;
    let queriesDuring = 0;
    const poller = (async () => {
      while (polling) {
        const r = await get(server.base, `/api/endpoints/query/logs.all?project=${encodeURIComponent(project)}`);
        if (r.status !== 200) throw new Error(`query during ingest answered ${r.status}`);
        queriesDuring++;
        await new Promise((res) => setTimeout(res, 5));
      }
    })();
    progress(`ingesting ${data.events.toLocaleString()} events over HTTP`);
    const ing = await httpIngest(server.base, data, data.events);
    polling = false;
    await poller;
    const pairs: HttpFigures['pairs'] = [];
    const paths = [
      ['logs.all default', `/api/endpoints/query/logs.all?project=${encodeURIComponent(project)}`],
      ['usage.api-counts hourly (cached)', `/api/endpoints/query/usage.api-counts?interval=hourly&project=${encodeURIComponent(project)}`],
    ] as const;
    for (const [name, path] of paths) {
      await get(server.base, path);
      const sample = await get(server.base, path);
      if (sample.status !== 200) throw new Error(`${name} answered ${sample.status}`);
      progress(`wrk: ${name} on ringql (${sample.body.length} bytes)`);
      const ringql = await load(server.base + path, seconds, 32);
      const raw = await startRaw(sample.body);
      try {
        progress(`wrk: raw uWS with the same ${sample.body.length} bytes`);
        const rawFig = await load(raw.base + path, seconds, 32);
        pairs.push({ name, bytes: sample.body.length, ringql, raw: rawFig, cacheHeader: `${sample.headers.get('x-cache') ?? ''}${sample.headers.get('x-cache-kind') ? '/' + sample.headers.get('x-cache-kind') : ''}` });
      } finally {
        await raw.stop();
      }
    }
    return { ingest: { ...ing, queriesDuring }, pairs };
  } finally {
    await server.stop();
  }
}
