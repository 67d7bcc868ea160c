// Hand-written NDJSON line for a standard `edge.logs.prod` event: about twice as fast as
// JSON.stringify on these 3 KB objects. Every string it writes unescaped is built from the
// generator's own JSON-safe pools (tests compare it byte for byte with JSON.stringify).

import type { EdgeEvent } from './edge-event.ts';

const q = (s: string | null | undefined): string => (s == null ? 'null' : '"' + s + '"');

/** The JSON text of `e`, or null when `e` is not the standard shape (use JSON.stringify then). */
export function edgeEventJson(e: EdgeEvent): string | null {
  const m = e.metadata;
  const rq = m.request;
  if (e.appname !== undefined || rq.url === undefined) return null;
  const ed = rq.edge;
  const bm = ed.botManagement;
  const h = rq.headers;
  const ta = ed.tlsExportedAuthenticator;
  const ca = ed.tlsClientAuth;
  const rs = m.response;
  const rh = rs.headers;
  return '{"id":"' + e.id + '","timestamp":' + (typeof e.timestamp === 'number' ? e.timestamp : '"' + e.timestamp + '"') +
    ',"event_message":"' + e.event_message + '","project":"' + e.project +
    '","metadata":{"ingest_worker":{"worker_id":"' + m.ingest_worker.worker_id +
    '"},"request":{"edge":{"asOrganization":"' + ed.asOrganization + '","asn":' + ed.asn +
    ',"botManagement":{"corporateProxy":' + bm.corporateProxy + ',"ja3Hash":"' + bm.ja3Hash + '","score":' + bm.score +
    ',"staticResource":' + bm.staticResource + ',"verifiedBot":' + bm.verifiedBot +
    '},"city":"' + ed.city + '","clientAcceptEncoding":"' + ed.clientAcceptEncoding + '","clientTrustScore":' + ed.clientTrustScore +
    ',"colo":"' + ed.colo + '","continent":"' + ed.continent + '","country":"' + ed.country +
    '","edgeRequestKeepAliveStatus":' + ed.edgeRequestKeepAliveStatus + ',"httpProtocol":"' + ed.httpProtocol +
    '","isEUCountry":"' + ed.isEUCountry + '","latitude":"' + ed.latitude + '","longitude":"' + ed.longitude +
    '","postalCode":"' + ed.postalCode + '","region":"' + ed.region + '","regionCode":"' + ed.regionCode +
    '","timezone":"' + ed.timezone + '","tlsCipher":"' + ed.tlsCipher +
    '","tlsClientAuth":{"certPresented":"' + ca.certPresented + '","certRevoked":"' + ca.certRevoked + '","certVerified":"' + ca.certVerified +
    '"},"tlsExportedAuthenticator":{"clientFinished":"' + ta.clientFinished + '","clientHandshake":"' + ta.clientHandshake +
    '","serverFinished":"' + ta.serverFinished + '","serverHandshake":"' + ta.serverHandshake +
    '"},"tlsVersion":"' + ed.tlsVersion + '"},"headers":{"accept":"' + h.accept + '","edge_connecting_ip":"' + h.edge_connecting_ip +
    '","edge_ipcountry":"' + h.edge_ipcountry + '","edge_ray":"' + h.edge_ray + '","host":"' + h.host +
    '","referer":"' + h.referer + '","user_agent":"' + h.user_agent + '","x_client_info":' + q(h.x_client_info) +
    ',"x_forwarded_proto":"' + h.x_forwarded_proto + '","x_real_ip":"' + h.x_real_ip +
    '"},"host":' + q(rq.host) + ',"method":"' + rq.method + '","path":"' + rq.path + '","protocol":"' + rq.protocol +
    '","search":' + q(rq.search) + ',"url":"' + rq.url +
    '"},"response":{"headers":{"edge_cache_status":"' + rh.edge_cache_status + '","edge_ray":"' + rh.edge_ray +
    '","content_length":"' + rh.content_length + '","content_type":"' + rh.content_type + '","date":"' + rh.date +
    '","gateway_mode":"' + rh.gateway_mode + '","gateway_version":"' + rh.gateway_version +
    '"},"origin_time":' + rs.origin_time + ',"status_code":' + rs.status_code + '}}}';
}
