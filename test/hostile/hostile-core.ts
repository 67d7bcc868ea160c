// The hostile-input harness (issue: hardening): a real ringql process on a loopback port, attacked
// class by class with seeded probes — redaction through errors and aggregates, budget-busting
// expressions, concurrency stalls, wide events, slow bodies, HTTP framing — each with the invariant it must keep.

import type { ChildProcess } from 'node:child_process';
import { freePort, startMainProcess } from '../helpers/main-process.ts';
import { mkdtempSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Rng } from '../fuzz/fuzz-targets.ts';

const TOKEN = 'hostile-private';
const INGEST_ONLY = 'hostile-ingest';
export const HOSTILE_ENV = {
  RINGQL_QUERY_TIMEOUT_MS: '1500',
  RINGQL_MAX_VALUE_BYTES: String(1024 * 1024),
  RINGQL_MAX_CONCURRENT_QUERIES: '4',
  RINGQL_MAX_FIELDS_PER_SOURCE: '2000',
  RINGQL_BODY_TIMEOUT_MS: '1500',
};
const BUDGET_MS = Number(HOSTILE_ENV.RINGQL_QUERY_TIMEOUT_MS);

/** Any IPv4 or IPv6 address (looser than the redaction pattern on purpose: a probe must find what redaction missed). */
const LEAK = /(?<![\d.])(?:0*(?:25[0-5]|2[0-4]\d|1?\d?\d)\.){3}0*(?:25[0-5]|2[0-4]\d|1?\d?\d)(?![\d])|(?<![0-9A-Za-z])(?:fe80|2001:0?db8|::ffff)(?::[0-9A-Fa-f]{0,4}){0,6}:[0-9A-Fa-f]{1,4}(?![0-9A-Za-z])/i;

export interface ClassReport {
  name: string;
  probes: number;
  failures: string[];
}

interface Resp {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
  ms: number;
}

/** Starts `src/main.ts` as its own process with the hostile limits; resolves once it listens. */
export async function startTarget(): Promise<{ port: number; child: ChildProcess; stop: () => Promise<void> }> {
  const port = await freePort();
  const child = await startMainProcess(port, {
    ...HOSTILE_ENV, RINGQL_ACCESS_TOKENS: `${TOKEN},${INGEST_ONLY}:ingest`, RINGQL_STATE_DIR: mkdtempSync(join(tmpdir(), 'ringql-hostile-')),
  });
  const stop = async (): Promise<void> => {
    if (child.exitCode !== null) return;
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
  };
  return { port, child, stop };
}

/** One HTTP/1.1 request over a raw socket (so repeated headers and odd framing go out as written). */
export function raw(port: number, head: string, body: Buffer | string = '', timeoutMs = 15_000): Promise<Resp> {
  const t0 = performance.now();
  return new Promise((resolve) => {
    const sock = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    const done = (): void => {
      clearTimeout(timer);
      sock.destroy();
      const text = Buffer.concat(chunks).toString('utf8');
      const [headText = '', ...rest] = text.split('\r\n\r\n');
      const lines = headText.split('\r\n');
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(lines[0] ?? '')?.[1] ?? 0);
      const headers: Record<string, string> = {};
      for (const l of lines.slice(1)) { const i = l.indexOf(':'); if (i > 0) headers[l.slice(0, i).toLowerCase()] = l.slice(i + 1).trim(); }
      resolve({ status, headers, body: rest.join('\r\n\r\n'), ms: performance.now() - t0 });
    };
    const timer = setTimeout(done, timeoutMs);
    sock.on('data', (c: Buffer) => {
      chunks.push(c);
      const text = Buffer.concat(chunks).toString('latin1');
      const end = text.indexOf('\r\n\r\n');
      const len = /content-length: *(\d+)/i.exec(text.slice(0, end))?.[1];
      if (end >= 0 && len !== undefined && Buffer.byteLength(text.slice(end + 4), 'latin1') >= Number(len)) done();
    });
    sock.on('end', done);
    sock.on('error', done);
    // Written once connected, in one piece, so a big head reaches the server in as few reads as it can.
    sock.once('connect', () => sock.write(body.length ? Buffer.concat([Buffer.from(head + `\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n`), Buffer.from(body)]) : head + '\r\nContent-Length: 0\r\n\r\n'));
  });
}

const get = (port: number, path: string, extra = ''): Promise<Resp> =>
  raw(port, `GET ${path} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${TOKEN}${extra}`);
const health = (port: number): Promise<Resp> => raw(port, 'GET /health HTTP/1.1\r\nHost: x');
const ingest = (port: number, events: unknown[], token = TOKEN): Promise<Resp> =>
  raw(port, `POST /api/logs?source_name=edge.logs.prod HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${token}\r\nContent-Type: application/json`, JSON.stringify(events));
const sandbox = (port: number, sql: string, extraHeaders = ''): Promise<Resp> =>
  get(port, `/api/endpoints/query/logs.all?project=hostile&sql=${encodeURIComponent(sql)}`, extraHeaders);

const ADDRESSES = ['10.0.0.1', '192.168.1.254', '010.001.002.003', '2001:db8::1', 'fe80::1', '::ffff:10.1.2.3', '2001:0db8:85a3:0000:0000:8a2e:0370:7334'];
const WRAPPERS = ['client %s connected', 'Remote:%s', 'source:%s', 'ip=%s,', '[%s]', 'x_%s', 'from %s:8080', '%s'];

function addressEvents(rng: Rng, n: number): unknown[] {
  return Array.from({ length: n }, (_, i) => {
    const a = rng.pick(ADDRESSES), w = rng.pick(WRAPPERS);
    return {
      id: `h${i}-${rng.int(1e9)}`, timestamp: new Date(Date.now() - 1000 * (i + 1)).toISOString(), project: 'hostile',
      event_message: w.replace('%s', a), metadata: { request: { headers: { x_forwarded_for: rng.pick(ADDRESSES) }, path: '/rest/v1/x' } },
    };
  });
}

const REDACTION_TEMPLATES = [
  'select cast(event_message as int64) as v from edge_logs',
  'select timestamp(event_message) as v from edge_logs',
  "select regexp_contains('x', event_message || '(') as v from edge_logs",
  "select string_agg(event_message, '%SEP%') as v from edge_logs",
  'select array_agg(event_message) as v from edge_logs',
  'select to_json_string(array_agg(event_message)) as v from edge_logs',
  "select cast(string_agg(event_message, '%SEP%') as int64) as v from edge_logs",
  'select cast(to_json_string(metadata) as int64) as v from edge_logs',
  'select to_json_string(metadata) as v from edge_logs',
  'select cast(to_json_string(array_agg(metadata)) as bool) as v from edge_logs',
  'select event_message as v from edge_logs order by timestamp desc limit 5',
  "select regexp_extract(event_message, '(\\\\d+\\\\.\\\\d+\\\\.\\\\d+\\\\.\\\\d+)') as v from edge_logs",
];
const SEPS = [',', ' ', '|', ';', ', ', '\\n'];

/** Redaction: no address in any body or header of a redacted request, errors and aggregates included. */
export async function redactionClass(port: number, rng: Rng, probes: number): Promise<ClassReport> {
  const failures: string[] = [];
  const r0 = await ingest(port, addressEvents(rng, 200));
  if (r0.status !== 200) failures.push(`seeding events failed: ${r0.status} ${r0.body.slice(0, 200)}`);
  for (let i = 0; i < probes; i++) {
    const sql = rng.pick(REDACTION_TEMPLATES).replaceAll('%SEP%', rng.pick(SEPS));
    // The header once, or repeated with a `false` copy first or last: any `true` redacts.
    const headers = rng.pick(['\r\nLF-ENDPOINT-REDACT-PII: true', '\r\nLF-ENDPOINT-REDACT-PII: false\r\nLF-ENDPOINT-REDACT-PII: true', '\r\nLF-ENDPOINT-REDACT-PII: true\r\nLF-ENDPOINT-REDACT-PII: false']);
    const r = await sandbox(port, sql, headers);
    const leak = LEAK.exec(r.body) ?? LEAK.exec(JSON.stringify(r.headers));
    if (r.status >= 500) failures.push(`${sql} → ${r.status} ${r.body.slice(0, 200)}`);
    else if (leak) failures.push(`${sql} [${headers.replaceAll('\r\n', ' ')}] leaked "${leak[0]}" in ${r.status} ${r.body.slice(0, 300)}`);
  }
  return { name: 'redaction through errors and aggregates', probes, failures };
}

const BUSTERS = [
  (n: number) => `select length(repeat(event_message, ${n * 1000})) as v from edge_logs`,
  (n: number) => `select length(replace(repeat('ab', ${n * 100}), 'a', repeat('z', ${n}))) as v`,
  (n: number) => `select count(*) as v from unnest(generate_array(1, ${n * 1000})) a, unnest(generate_array(1, ${n * 1000})) b`,
  (n: number) => `select array_length(array_concat(generate_array(1, ${n * 1000}), generate_array(1, ${n * 1000}))) as v from edge_logs`,
  (n: number) => `select count(*) as v from edge_logs a, edge_logs b, edge_logs c where a.id != concat(b.id, c.id, '${n}')`,
  (n: number) => `select length(string_agg(repeat(a.event_message, ${n}), '')) as v from edge_logs a, edge_logs b`,
  (n: number) => `select count(distinct concat(a.id, b.id)) as v from edge_logs a, edge_logs b, unnest(generate_array(1, ${n})) g`,
  (n: number) => `select length(${Array.from({ length: 20 }, () => `repeat('x', ${n * 10_000})`).join(' || ')}) as v`,
  (n: number) => `select v from (select a.id as v from edge_logs a, edge_logs b order by concat(a.event_message, b.event_message, '${n}') desc) limit 1`,
];
const BUSTER_STATUS = new Set([200, 400, 503]);
const BUSTER_CODES = new Set(['value_too_large', 'query_error', 'query_timeout', 'overloaded', 'payload_too_large']);

/** Budget-busting expressions: every answer is 200 or a documented code, within budget + 1 s; /health stays fast. */
export async function budgetClass(port: number, rng: Rng, probes: number): Promise<ClassReport> {
  const failures: string[] = [];
  for (let i = 0; i < probes; i++) {
    const sql = rng.pick(BUSTERS)(1 + rng.int(100));
    const pending = sandbox(port, sql);
    await new Promise((r) => setTimeout(r, 100));
    const h = await health(port);
    const r = await pending;
    const code = r.status === 200 ? null : (JSON.parse(r.body || '{}') as { error?: { code?: string } }).error?.code;
    if (!BUSTER_STATUS.has(r.status) || (code !== null && !BUSTER_CODES.has(code ?? ''))) failures.push(`${sql} → ${r.status} ${r.body.slice(0, 200)}`);
    if (r.ms > BUDGET_MS + 1000 + 250) failures.push(`${sql} took ${Math.round(r.ms)} ms (budget ${BUDGET_MS} ms + 1 s)`);
    if (h.status !== 200 || h.ms > 1000) failures.push(`/health during "${sql}": ${h.status} in ${Math.round(h.ms)} ms`);
  }
  return { name: 'budget-busting expressions', probes, failures };
}

/** Concurrency stalls: several heavy queries at once; /health ≤ 1 s and a small ingest ≤ 2 s meanwhile. */
export async function stallClass(port: number, rng: Rng, rounds: number): Promise<ClassReport> {
  const failures: string[] = [];
  for (let i = 0; i < rounds; i++) {
    const heavy = Array.from({ length: 3 + rng.int(3) }, () => sandbox(port, `select count(*) as v from edge_logs a, edge_logs b, edge_logs c where a.id != concat(b.id, '${rng.int(1e6)}')`));
    await new Promise((r) => setTimeout(r, 150));
    for (let k = 0; k < 3; k++) {
      const h = await health(port);
      if (h.status !== 200 || h.ms > 1000) failures.push(`round ${i}: /health ${h.status} in ${Math.round(h.ms)} ms`);
    }
    const ing = await ingest(port, addressEvents(rng, 5));
    if (ing.status !== 200 || ing.ms > 2000) failures.push(`round ${i}: ingest ${ing.status} in ${Math.round(ing.ms)} ms`);
    for (const r of await Promise.all(heavy)) {
      if (![200, 503].includes(r.status)) failures.push(`round ${i}: heavy query → ${r.status} ${r.body.slice(0, 200)}`);
      if (r.ms > BUDGET_MS + 1000 + 250) failures.push(`round ${i}: heavy query took ${Math.round(r.ms)} ms`);
    }
  }
  return { name: 'concurrency stalls', probes: rounds, failures };
}

/** Wide events from an ingest-only token: bounded field paths (400 invalid_events), planning stays fast, schema route stays small. */
export async function wideClass(port: number, rng: Rng, batches: number): Promise<ClassReport> {
  const failures: string[] = [];
  let rejected = 0;
  for (let b = 0; b < batches; b++) {
    const events = Array.from({ length: 50 }, (_, i) => {
      const e: Record<string, unknown> = { project: 'hostile', event_message: 'wide' };
      for (let k = 0; k < 20; k++) e[`k_${b}_${i}_${k}_${rng.int(1e6)}`] = k;
      return e;
    });
    const r = await ingest(port, events, INGEST_ONLY);
    if (r.status === 400 && r.body.includes('invalid_events')) rejected++;
    else if (r.status !== 200) failures.push(`wide batch ${b} → ${r.status} ${r.body.slice(0, 200)}`);
  }
  if (batches * 1000 > Number(HOSTILE_ENV.RINGQL_MAX_FIELDS_PER_SOURCE) * 2 && rejected === 0) failures.push(`${batches * 1000} distinct keys were all accepted: no field bound`);
  const q = await sandbox(port, 'select count(*) as v from edge_logs');
  if (q.status !== 200 || q.ms > 1000) failures.push(`a query after wide ingest: ${q.status} in ${Math.round(q.ms)} ms`);
  const s = await get(port, '/api/sources/edge.logs.prod/schema');
  if (s.status !== 200 || s.body.length > 2 * 1024 * 1024) failures.push(`schema route: ${s.status}, ${s.body.length} bytes`);
  const h = await health(port);
  if (h.status !== 200 || h.ms > 1000) failures.push(`/health after wide ingest: ${h.status} in ${Math.round(h.ms)} ms`);
  return { name: 'wide events', probes: batches, failures };
}

/** Slow bodies: stalled partial bodies never shed /health nor starve queries, and are cut at the body deadline. */
export async function slowBodyClass(port: number, rng: Rng, sockets: number): Promise<ClassReport> {
  const failures: string[] = [];
  const open = Array.from({ length: sockets }, () => {
    const s = connect(port, '127.0.0.1');
    const path = rng.int(2) ? '/api/logs?source_name=edge.logs.prod' : '/api/endpoints/query/logs.all';
    s.on('error', () => {});
    s.write(`POST ${path} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${TOKEN}\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n[{"a":`);
    let closed = false;
    s.on('close', () => { closed = true; });
    return { s, closed: () => closed };
  });
  await new Promise((r) => setTimeout(r, 200));
  const h = await health(port);
  if (h.status !== 200 || h.ms > 1000) failures.push(`/health with ${sockets} stalled bodies: ${h.status} in ${Math.round(h.ms)} ms`);
  const q = await sandbox(port, 'select count(*) as v from edge_logs');
  if (q.status !== 200) failures.push(`a query with ${sockets} stalled bodies: ${q.status} ${q.body.slice(0, 200)}`);
  await new Promise((r) => setTimeout(r, Number(HOSTILE_ENV.RINGQL_BODY_TIMEOUT_MS) + 2500));
  const stillOpen = open.filter((o) => !o.closed()).length;
  if (stillOpen > 0) failures.push(`${stillOpen} of ${sockets} stalled bodies still open after the body deadline`);
  for (const o of open) o.s.destroy();
  const ing = await ingest(port, addressEvents(rng, 2));
  if (ing.status !== 200) failures.push(`ingest after the stalled bodies: ${ing.status} ${ing.body.slice(0, 200)}`);
  return { name: 'slow bodies', probes: sockets, failures };
}

/**
 * Framing: a long URL → 414 and a big header block → 431, with our JSON body, promptly. The installed
 * uWebSockets.js build closes a head it receives in several reads past 4 KiB before ringql sees it (on
 * loopback a 70 KiB head usually comes in one read, not always), so a prompt close is accepted there; and it cannot parse more than 48 header lines at all (a small head with
 * more waits for its 10 s idle timeout): that case is checked only for "never served, and the server
 * stays responsive meanwhile", and its time is reported as a known limit.
 */
export async function framingClass(port: number, rng: Rng): Promise<ClassReport> {
  const failures: string[] = [];
  const codeOf = (r: Resp): string | undefined => { try { return (JSON.parse(r.body) as { error?: { code?: string } }).error?.code; } catch { return undefined; } };
  const url = await get(port, `/api/endpoints/query/logs.all?project=${'a'.repeat(70 * 1024 + rng.int(1000))}`);
  const urlOk = (url.status === 414 && codeOf(url) === 'uri_too_long') || (url.status === 0 && url.ms < 1000);
  if (!urlOk || url.ms > 2000) failures.push(`URL of 70 KiB: ${url.status} ${codeOf(url) ?? url.body.slice(0, 100)} in ${Math.round(url.ms)} ms (want 414 uri_too_long or a prompt close)`);
  if (url.status === 0) knownLimits.push('a 70 KiB URL arrived in several reads and uWebSockets.js closed it (it buffers at most 4 KiB of a partial head) before ringql could answer 414');
  const big = await get(port, '/api/sources', `\r\nX-Big: ${'b'.repeat(70 * 1024)}`);
  const bigOk = (big.status === 431 && codeOf(big) === 'headers_too_large') || (big.status === 0 && big.ms < 1000);
  if (!bigOk || big.ms > 2000) failures.push(`header block of 70 KiB: ${big.status} ${codeOf(big) ?? big.body.slice(0, 100)} in ${Math.round(big.ms)} ms (want 431 headers_too_large or a prompt close)`);
  if (big.status === 0) knownLimits.push('a 70 KiB header block arrived in several reads and uWebSockets.js closed it before ringql could answer 431');
  const many = Array.from({ length: 101 + rng.int(100) }, (_, i) => `\r\nX-H${i}: v`).join('');
  const pending = get(port, '/api/sources', many);
  const h = await health(port);
  if (h.status !== 200 || h.ms > 1000) failures.push(`/health while a >100-header request waits: ${h.status} in ${Math.round(h.ms)} ms`);
  const manyR = await pending;
  if (manyR.status === 200) failures.push('a request with over 100 header lines was served');
  knownLimits.push(`over 100 header lines: ${manyR.status === 0 ? 'closed' : manyR.status} after ${Math.round(manyR.ms)} ms (uWebSockets.js parses at most 48 lines; SPEC §11 wants a prompt 431)`);
  const fine = await get(port, '/api/sources', Array.from({ length: 40 }, (_, i) => `\r\nX-H${i}: v`).join(''));
  if (fine.status !== 200) failures.push(`40 headers: ${fine.status} ${fine.body.slice(0, 100)}`);
  return { name: 'HTTP framing', probes: 4, failures };
}

/** Limits of the components this build runs on, reported by the run but not counted as failures. */
export const knownLimits: string[] = [];

export interface HostileOptions {
  seed: number;
  /** Scales every class (1 = the short CI pass). */
  scale: number;
  log?: (line: string) => void;
}

export async function runHostile(opts: HostileOptions): Promise<ClassReport[]> {
  const target = await startTarget();
  const rng = new Rng(opts.seed);
  const log = opts.log ?? (() => {});
  const out: ClassReport[] = [];
  try {
    const classes: [string, () => Promise<ClassReport>][] = [
      ['redaction', () => redactionClass(target.port, rng, 24 * opts.scale)],
      ['framing', () => framingClass(target.port, rng)],
      ['budget', () => budgetClass(target.port, rng, 6 * opts.scale)],
      ['stalls', () => stallClass(target.port, rng, 2 * opts.scale)],
      ['slow bodies', () => slowBodyClass(target.port, rng, 30 * opts.scale)],
      ['wide', () => wideClass(target.port, rng, 6 * opts.scale)],
    ];
    for (const [name, run] of classes) {
      log(`hostile: ${name}…`);
      const r = await run();
      log(`hostile: ${name}: ${r.probes} probes, ${r.failures.length} failures`);
      out.push(r);
    }
    if (target.child.exitCode !== null) out.push({ name: 'server alive', probes: 1, failures: [`the server exited with ${target.child.exitCode}`] });
  } finally {
    await target.stop();
  }
  return out;
}
