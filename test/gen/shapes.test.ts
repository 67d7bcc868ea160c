// Every source's events carry the keys and types of SAMPLE-EVENTS.md (checked on representative
// nested paths), the container-shipper variants appear, and the usage-chart paths are all there.

import { describe, expect, it } from 'vitest';
import { generateEvents, GEN_SOURCE_NAMES } from '../../src/gen/generate.ts';
import { END_US, at } from './helpers.ts';

type Kind = 'string' | 'integer' | 'boolean' | 'object' | 'string[]' | 'string|null' | 'integer|null';

const SHAPES: Record<string, Record<string, Kind>> = {
  'edge.logs.prod': {
    event_message: 'string', project: 'string', 'metadata.ingest_worker.worker_id': 'string',
    'metadata.request.edge.asOrganization': 'string', 'metadata.request.edge.asn': 'integer',
    'metadata.request.edge.botManagement.corporateProxy': 'boolean', 'metadata.request.edge.botManagement.score': 'integer',
    'metadata.request.edge.botManagement.ja3Hash': 'string', 'metadata.request.edge.botManagement.staticResource': 'boolean',
    'metadata.request.edge.city': 'string', 'metadata.request.edge.clientTrustScore': 'integer', 'metadata.request.edge.colo': 'string',
    'metadata.request.edge.country': 'string', 'metadata.request.edge.edgeRequestKeepAliveStatus': 'integer',
    'metadata.request.edge.isEUCountry': 'string', 'metadata.request.edge.latitude': 'string', 'metadata.request.edge.longitude': 'string',
    'metadata.request.edge.tlsClientAuth.certVerified': 'string', 'metadata.request.edge.tlsExportedAuthenticator.clientFinished': 'string',
    'metadata.request.edge.tlsVersion': 'string', 'metadata.request.headers.x_real_ip': 'string',
    'metadata.request.headers.edge_connecting_ip': 'string', 'metadata.request.headers.user_agent': 'string',
    'metadata.request.headers.host': 'string', 'metadata.request.headers.referer': 'string',
    'metadata.request.method': 'string', 'metadata.request.path': 'string', 'metadata.request.protocol': 'string',
    'metadata.response.headers.content_length': 'string', 'metadata.response.headers.date': 'string',
    'metadata.response.headers.edge_cache_status': 'string', 'metadata.response.origin_time': 'integer',
    'metadata.response.status_code': 'integer',
  },
  'postgres.logs': {
    event_message: 'string', project: 'string', 'metadata.host': 'string', 'metadata.parsed.backend_type': 'string',
    'metadata.parsed.command_tag': 'string', 'metadata.parsed.connection_from': 'string', 'metadata.parsed.database_name': 'string',
    'metadata.parsed.error_severity': 'string', 'metadata.parsed.leader_pid': 'integer', 'metadata.parsed.process_id': 'integer',
    'metadata.parsed.query_id': 'integer', 'metadata.parsed.session_id': 'string', 'metadata.parsed.session_line_num': 'integer',
    'metadata.parsed.session_start_time': 'string', 'metadata.parsed.sql_state_code': 'string', 'metadata.parsed.timestamp': 'string',
    'metadata.parsed.transaction_id': 'integer', 'metadata.parsed.user_name': 'string', 'metadata.parsed.virtual_transaction_id': 'string',
    'metadata.parsed.context': 'string|null', 'metadata.parsed.query': 'string|null',
  },
  'function-relay-logs': {
    event_message: 'string', 'metadata.deployment_id': 'string', 'metadata.execution_time_ms': 'integer', 'metadata.function_id': 'string',
    'metadata.project_ref': 'string', 'metadata.request.headers.host': 'string', 'metadata.request.headers.user_agent': 'string',
    'metadata.request.host': 'string', 'metadata.request.method': 'string', 'metadata.request.pathname': 'string',
    'metadata.request.protocol': 'string', 'metadata.request.url': 'string', 'metadata.response.headers.date': 'string',
    'metadata.response.headers.server': 'string', 'metadata.response.status_code': 'integer', 'metadata.version': 'string',
    'metadata.execution_id': 'string',
  },
  'function-runtime-events': {
    event_message: 'string', 'metadata.deployment_id': 'string', 'metadata.event_type': 'string', 'metadata.execution_id': 'string',
    'metadata.function_id': 'string', 'metadata.level': 'string', 'metadata.project_ref': 'string', 'metadata.region': 'string',
    'metadata.timestamp': 'string', 'metadata.version': 'string',
  },
  'auth.logs.prod': {
    event_message: 'string', project: 'string', 'metadata.action': 'string', 'metadata.args': 'string[]',
    'metadata.auth_event.action': 'string', 'metadata.auth_event.actor_id': 'string', 'metadata.auth_event.actor_via_sso': 'boolean',
    'metadata.auth_event.traits.provider': 'string', 'metadata.auth_event.traits.user_email': 'string', 'metadata.client_id': 'string',
    'metadata.component': 'string', 'metadata.duration': 'string', 'metadata.error': 'string', 'metadata.host': 'string',
    'metadata.level': 'string', 'metadata.metering': 'boolean', 'metadata.method': 'string', 'metadata.msg': 'string',
    'metadata.path': 'string', 'metadata.project': 'string', 'metadata.remote_addr': 'string', 'metadata.request_id': 'string',
    'metadata.status': 'string', 'metadata.time': 'string', 'metadata.timestamp': 'string', 'metadata.user_id': 'string',
  },
  'realtime.logs.prod': {
    event_message: 'string', 'metadata.context.application': 'string', 'metadata.context.domain': 'string[]',
    'metadata.context.file': 'string', 'metadata.context.function': 'string', 'metadata.context.gl': 'string',
    'metadata.context.line': 'integer', 'metadata.context.mfa': 'string[]', 'metadata.context.module': 'string',
    'metadata.context.pid': 'string', 'metadata.context.time': 'integer', 'metadata.context.vm.node': 'string',
    'metadata.external_id': 'string', 'metadata.level': 'string', 'metadata.project': 'string',
  },
  'storage.logs.prod': {
    event_message: 'string', 'metadata.context.host': 'string', 'metadata.context.pid': 'integer', 'metadata.level': 'string',
    'metadata.project': 'string', 'metadata.reqId': 'string', 'metadata.tenantId': 'string',
  },
  'rest.logs.prod': { event_message: 'string', project: 'string', 'metadata.host': 'string' },
  'pooler.logs.prod': { event_message: 'string', project: 'string', 'metadata.host': 'string' },
};

function kindOf(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return v.every((x) => typeof x === 'string') ? 'string[]' : 'array';
  if (typeof v === 'number') return Number.isInteger(v) ? 'integer' : 'float';
  return typeof v;
}

function matches(kind: Kind, v: unknown): boolean {
  const k = kindOf(v);
  return kind.split('|').includes(k);
}

const events = new Map<string, Record<string, unknown>[]>();
for (const { source, event } of generateEvents({ events: 40_000, projects: 8, days: 7, seed: 7, endUs: END_US })) {
  const list = events.get(source) ?? [];
  list.push(event);
  events.set(source, list);
}
const standard = (list: Record<string, unknown>[]): Record<string, unknown>[] => list.filter((e) => e.appname === undefined);

describe('event shapes', () => {
  it.each(GEN_SOURCE_NAMES.map((s) => [s]))('%s has the sample keys and types', (source) => {
    const list = standard(events.get(source) ?? []);
    expect(list.length).toBeGreaterThan(100);
    for (const e of list) {
      expect(Object.keys(e).slice(0, 3)).toEqual(['id', 'timestamp', 'event_message']);
      expect(typeof e.metadata).toBe('object');
      for (const [path, kind] of Object.entries(SHAPES[source]!)) {
        const v = at(e, path);
        if (!matches(kind, v)) throw new Error(`${source} ${path}: expected ${kind}, got ${JSON.stringify(v)}`);
      }
    }
  });

  it('uses a realistic mix of status codes, severities and levels', () => {
    const edge = standard(events.get('edge.logs.prod')!);
    const codes = edge.map((e) => at(e, 'metadata.response.status_code') as number);
    const share = (f: (c: number) => boolean): number => codes.filter(f).length / codes.length;
    expect(share((c) => c >= 200 && c < 300)).toBeGreaterThan(0.75);
    expect(share((c) => c >= 400 && c < 500)).toBeGreaterThan(0.03);
    expect(share((c) => c >= 500)).toBeGreaterThan(0.003);
    const methods = new Set(edge.map((e) => at(e, 'metadata.request.method')));
    for (const m of ['GET', 'POST', 'PATCH', 'DELETE', 'OPTIONS']) expect(methods.has(m)).toBe(true);

    const sev = new Set(events.get('postgres.logs')!.map((e) => at(e, 'metadata.parsed.error_severity')));
    for (const s of sev) expect(['LOG', 'INFO', 'NOTICE', 'WARNING', 'ERROR', 'FATAL', 'PANIC']).toContain(s);
    for (const s of ['LOG', 'WARNING', 'ERROR', 'FATAL']) expect(sev.has(s)).toBe(true);

    const levels = new Set(events.get('function-runtime-events')!.map((e) => at(e, 'metadata.level')));
    for (const l of ['info', 'log', 'debug', 'warn', 'error']) expect(levels.has(l)).toBe(true);
    const realtime = new Set(events.get('realtime.logs.prod')!.map((e) => at(e, 'metadata.level')));
    expect(realtime.has('error')).toBe(true);
  });

  it('covers every API family in edge paths, with matching URLs', () => {
    const edge = standard(events.get('edge.logs.prod')!);
    const prefixes = ['/rest/v1', '/storage/v1', '/auth/v1', '/realtime/v1', '/functions/v1', '/graphql/v1', '/pg-meta'];
    for (const prefix of prefixes) expect(edge.some((e) => String(at(e, 'metadata.request.path')).startsWith(prefix))).toBe(true);
    for (const e of edge) {
      const url = String(at(e, 'metadata.request.url'));
      expect(url.startsWith(`https://${e.project}.api.example.com${at(e, 'metadata.request.path')}`)).toBe(true);
      expect(String(e.event_message)).toContain(url);
    }
  });

  it('puts IPv4 and IPv6 addresses where redaction will look for them', () => {
    const ips = standard(events.get('edge.logs.prod')!).map((e) => String(at(e, 'metadata.request.headers.x_real_ip')));
    expect(ips.some((ip) => /^\d+\.\d+\.\d+\.\d+$/.test(ip))).toBe(true);
    expect(ips.some((ip) => ip.includes(':'))).toBe(true);
    const pooler = events.get('pooler.logs.prod')!.map((e) => String(e.event_message));
    expect(pooler.some((m) => /\d+\.\d+\.\d+\.\d+:\d+/.test(m))).toBe(true);
    const auth = events.get('auth.logs.prod')!.map((e) => JSON.parse(String(e.event_message)) as Record<string, unknown>);
    expect(auth.some((l) => typeof l.remote_addr === 'string' && l.remote_addr !== '')).toBe(true);
  });

  it('includes container log shipper variants', () => {
    const edgeShip = events.get('edge.logs.prod')!.filter((e) => e.appname !== undefined);
    expect(edgeShip.length).toBeGreaterThan(0);
    for (const e of edgeShip) {
      expect(typeof e.appname).toBe('string');
      expect(at(e, 'metadata.request.url')).toBeUndefined();
      expect(at(e, 'metadata.request.host')).toBeUndefined();
      expect(at(e, 'metadata.request.search')).toBeUndefined();
      expect(typeof at(e, 'metadata.request.path')).toBe('string');
    }
    const authShip = events.get('auth.logs.prod')!.filter((e) => e.appname !== undefined);
    expect(authShip.some((e) => Number.isInteger(at(e, 'metadata.status')))).toBe(true);
    const relayShip = events.get('function-relay-logs')!.filter((e) => e.appname !== undefined);
    expect(relayShip.length).toBeGreaterThan(0);
    for (const e of relayShip) expect(Object.keys(e.metadata as object)).toEqual(['project_ref']);
    const storageShip = events.get('storage.logs.prod')!.filter((e) => e.appname !== undefined);
    for (const e of storageShip) expect(Array.isArray(at(e, 'metadata.context'))).toBe(true);
  });
});
