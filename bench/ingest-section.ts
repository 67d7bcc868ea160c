// Issue 16's ingest figures for bench/run.ts: in-process cost ÷ JSON.parse (a child with the server's flags), HTTP
// events/s sustained by a warm server at 4/8/16 bodies in flight (WAL on; a fresh server's first pass apart), the
// load generator's own ceiling against a drain-only sink, and the demo load of a server start to serving.

import { demoBodies, smallEdgeBodies } from './ingest-corpus.ts';
import { inprocInChild, type InprocFigure } from './ingest-inproc.ts';
import { demoLoad } from './ingest-bench.ts';
import { HTTP_CORPUS_TIMES, HTTP_INFLIGHT, generatorCeiling, httpIngest, httpPasses } from './ingest-http.ts';
import { loadAverage } from './proc-tree.ts';
import { progress } from './stats.ts';

export interface IngestCorpus extends InprocFigure {
  name: string;
  http: Awaited<ReturnType<typeof httpIngest>>;
  /** The same client against a server that only drains bodies. */
  generator: Awaited<ReturnType<typeof generatorCeiling>>;
}

export interface IngestFigures {
  corpora: IngestCorpus[];
  demo: Awaited<ReturnType<typeof demoLoad>>;
  load: { start: string; end: string };
}

export async function ingestSection(events: number): Promise<IngestFigures> {
  const start = loadAverage();
  const now = Date.now() * 1000;
  const corpora: IngestCorpus[] = [];
  for (const [name, corpus, make] of [['demo generator', 'demo', demoBodies], ['~600 B edge events', 'small', smallEdgeBodies]] as const) {
    progress(`  ingest: ${name}, in-process (a child with the server's node flags)`);
    const f = await inprocInChild(corpus, events, now);
    progress(`  ingest: ${name}, the load generator alone`);
    const generator = await generatorCeiling(make(events, now), Math.max(...HTTP_INFLIGHT));
    progress(`  ingest: ${name}, over HTTP (a first pass of ${events.toLocaleString()} events on the fresh server, then ${(1.5 * events).toLocaleString()} at each of ${HTTP_INFLIGHT.join(', ')} bodies in flight)`);
    const { warm, levels } = httpPasses(make(events * HTTP_CORPUS_TIMES, now), events);
    corpora.push({ name, ...f, http: await httpIngest(warm, levels), generator });
  }
  progress('  ingest: demo load to serving');
  return { corpora, demo: await demoLoad(), load: { start, end: loadAverage() } };
}
