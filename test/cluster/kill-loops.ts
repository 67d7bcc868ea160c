// The kill test's two loops: a publisher sending batches of fresh events to random live nodes (logging
// what was sent and acknowledged per project) and a query loop asking random live nodes for per-project
// counts, checking each answer against the log: 200 within [acked before send, sent by receipt] and
// duplicate-free, or 503 with Retry-After within 15 s of a disruption.

import type { NodeHandle } from './cluster-procs.ts';
import { TOKEN } from './cluster-procs.ts';
import type { KillLedger } from './kill-ledger.ts';

const auth = { Authorization: `Bearer ${TOKEN}` };
export const UNAVAILABLE_LIMIT_MS = 15_000;

function pick<T>(xs: readonly T[]): T | undefined {
  return xs[Math.floor(Math.random() * xs.length)];
}

export interface LoopOptions {
  /** Projects per batch and events per project in a batch. */
  projectsPerBatch: number;
  eventsPerProject: number;
  /** Pause between batches / queries of one loop (ms). */
  pauseMs: number;
}

/** One publisher loop (`tag` keeps its event ids apart from other loops'); runs until `stop()` is true. */
export async function publisherLoop(tag: string, nodes: readonly NodeHandle[], ledger: KillLedger, o: LoopOptions, stop: () => boolean): Promise<void> {
  for (let b = 0; !stop(); b++) {
    const node = pick(nodes.filter((n) => n.up));
    if (!node) { await sleep(50); continue; }
    const chosen = [...new Set(Array.from({ length: o.projectsPerBatch }, () => pick(ledger.projects)!))];
    const now = Date.now();
    const batch = chosen.flatMap((project) => Array.from({ length: o.eventsPerProject }, (_, i) => ({
      id: `${project}-${tag}-${b}-${i}`, project, event_message: `GET /kill/${b}/${i}`, timestamp: new Date(now - 1000 + i).toISOString(),
    })));
    for (const p of chosen) ledger.add(ledger.sent, p, o.eventsPerProject);
    ledger.figures.batches++;
    let status = 0;
    try {
      const r = await fetch(`http://127.0.0.1:${node.port}/api/logs?source_name=edge.logs.prod`, {
        method: 'POST', headers: { ...auth, 'Content-Type': 'application/json' }, body: JSON.stringify({ batch }), signal: AbortSignal.timeout(30_000),
      });
      status = r.status;
      await r.arrayBuffer();
    } catch { /* refused or cut off: unknown fate */ }
    if (status === 200) {
      for (const p of chosen) ledger.add(ledger.acked, p, o.eventsPerProject);
      ledger.figures.ackedEvents += batch.length;
    } else {
      ledger.figures.failedBatches++;
      for (const p of chosen) ledger.uncertain.push({ project: p, prefix: `${p}-${tag}-${b}-`, events: o.eventsPerProject });
    }
    await sleep(o.pauseMs);
  }
}

export const COUNT_SQL = 'select count(*) as n, count(distinct id) as d from edge_logs';

export async function query(port: number, project: string, sql: string): Promise<{ status: number; body: string; retryAfter: string | null }> {
  const r = await fetch(`http://127.0.0.1:${port}/api/endpoints/query/logs.all?project=${encodeURIComponent(project)}&sql=${encodeURIComponent(sql)}`,
    { headers: auth, signal: AbortSignal.timeout(30_000) });
  return { status: r.status, body: await r.text(), retryAfter: r.headers.get('retry-after') };
}

/** One query loop; runs until `stop()` is true. */
export async function queryLoop(nodes: readonly NodeHandle[], ledger: KillLedger, pauseMs: number, stop: () => boolean): Promise<void> {
  while (!stop()) {
    const node = pick(nodes.filter((n) => n.up));
    const project = pick(ledger.projects)!;
    if (!node) { await sleep(50); continue; }
    const lower = ledger.acked.get(project)!;
    const sentAt = Date.now();
    ledger.figures.queries++;
    let r: Awaited<ReturnType<typeof query>>;
    try {
      r = await query(node.port, project, COUNT_SQL);
    } catch (err) {
      if (node.up) ledger.violate(`${new Date(sentAt).toISOString()} ${node.id} ${project}: no answer (${err instanceof Error ? err.message : String(err)})`);
      continue;
    }
    const upper = ledger.sent.get(project)!;
    const at = `${new Date(sentAt).toISOString()} ${node.id} ${project}`;
    if (r.status === 200) {
      ledger.figures.ok++;
      const row = (JSON.parse(r.body) as { result: { n: number; d: number }[] }).result[0]!;
      if (row.n !== row.d) ledger.violate(`${at}: ${row.n} rows but ${row.d} distinct ids (duplicates)`);
      if (row.n < lower) ledger.violate(`${at}: ${row.n} events, fewer than the ${lower} acknowledged before the query`);
      if (row.n > upper) ledger.violate(`${at}: ${row.n} events, more than the ${upper} ever sent`);
    } else if (r.status === 503) {
      ledger.figures.unavailable++;
      ledger.unavailable.push({ at: sentAt, node: node.id, project, message: r.body.slice(0, 120) });
      if (r.retryAfter === null) ledger.violate(`${at}: 503 without Retry-After`);
      // Measured from the answer: a query in flight when a node died gets its 503 after the disruption.
      const since = ledger.sinceDisruption(Date.now());
      if (since > UNAVAILABLE_LIMIT_MS) ledger.violate(`${at}: 503 ${since} ms after the last disruption: ${r.body.slice(0, 200)}`);
    } else {
      ledger.violate(`${at}: status ${r.status}: ${r.body.slice(0, 300)}`);
    }
    await sleep(pauseMs);
  }
}

export function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}
