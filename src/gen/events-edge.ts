// Builder for `edge.logs.prod` events: the gateway's access log with CDN request properties,
// request/response headers and the `METHOD | status | ip | ray | url | ua` message line.

import { Weighted, weightedKeys } from './random.ts';
import { GEO_PLACES, type GeoPlace } from './geo-pool.ts';
import { CLIENT_INFOS, REFERERS, USER_AGENTS } from './client-pool.ts';
import { EDGE_ROUTES } from './edge-routes.ts';
import type { EventBuilder } from './context.ts';
import type { EdgeEvent, EdgeRequest } from './edge-event.ts';

const PLACES = new Weighted<GeoPlace>(GEO_PLACES.map((g) => [g, g.weight] as const));
const PROTOCOLS = weightedKeys({ 'HTTP/2': 60, 'HTTP/1.1': 25, 'HTTP/3': 15 });
const CIPHERS = weightedKeys({ 'AEAD-AES128-GCM-SHA256': 55, 'AEAD-AES256-GCM-SHA384': 15, 'AEAD-CHACHA20-POLY1305-SHA256': 10, 'ECDHE-RSA-AES128-GCM-SHA256': 20 });
const ENCODINGS = ['gzip, deflate, br', 'gzip, deflate, br, zstd', 'gzip', 'gzip, deflate', 'br'];
const ACCEPTS = ['application/json', '*/*', 'application/json, text/plain, */*', 'application/vnd.pgrst.object+json', 'text/html,application/xhtml+xml'];

export const buildEdgeEvent: EventBuilder = (ctx, p) => {
  const rng = ctx.rng;
  const route = EDGE_ROUTES.pick(rng);
  const hit = route.build(rng, p);
  const method = route.methods.pick(rng);
  let status = route.statuses.pick(rng);
  if (method === 'OPTIONS') status = rng.chance(0.97) ? 200 : 204;
  const place = PLACES.pick(rng);
  const ip = ctx.clients.clientIp(rng);
  const ua = USER_AGENTS.pick(rng);
  const ray = rng.hex(16);
  const host = p.ref + '.api.example.com';
  const url = 'https://' + host + hit.path + hit.search;
  const bot = ua.indexOf('bot') >= 0;
  const score = bot ? rng.int(1, 29) : rng.chance(0.9) ? rng.int(80, 99) : rng.int(30, 79);
  const tls13 = rng.chance(0.85);
  let originMs = Math.round(rng.logNormal(route.originMs, 0.8));
  if (status >= 500) originMs = Math.round(originMs * rng.int(5, 40));
  if (originMs > 60000) originMs = 60000;
  const cache = route.static ? (rng.chance(0.6) ? 'HIT' : status === 304 ? 'REVALIDATED' : 'MISS') : 'DYNAMIC';
  const contentLength = status === 204 || status === 304 || status === 101 ? 0 : status >= 400 ? rng.int(40, 400) : rng.int(2, route.static ? 600_000 : 60_000);
  const ts = ctx.tlsHex;

  let request: EdgeRequest = {
    edge: {
      asOrganization: place.asOrganization,
      asn: place.asn,
      botManagement: {
        corporateProxy: rng.chance(0.03),
        ja3Hash: ctx.clients.ja3[rng.below(ctx.clients.ja3.length)],
        score,
        staticResource: route.static,
        verifiedBot: bot && rng.chance(0.8),
      },
      city: place.city,
      clientAcceptEncoding: rng.pick(ENCODINGS),
      clientTrustScore: score,
      colo: place.colo,
      continent: place.continent,
      country: place.country,
      edgeRequestKeepAliveStatus: 1,
      httpProtocol: PROTOCOLS.pick(rng),
      isEUCountry: place.isEU ? '1' : '0',
      latitude: place.latitude,
      longitude: place.longitude,
      postalCode: place.postalCode,
      region: place.region,
      regionCode: place.regionCode,
      timezone: place.timezone,
      tlsCipher: tls13 ? CIPHERS.pick(rng) : 'ECDHE-RSA-AES128-GCM-SHA256',
      tlsClientAuth: { certPresented: '0', certRevoked: '0', certVerified: 'NONE' },
      tlsExportedAuthenticator: {
        clientFinished: ts[rng.below(ts.length)],
        clientHandshake: ts[rng.below(ts.length)],
        serverFinished: ts[rng.below(ts.length)],
        serverHandshake: ts[rng.below(ts.length)],
      },
      tlsVersion: tls13 ? 'TLSv1.3' : 'TLSv1.2',
    },
    headers: {
      accept: rng.pick(ACCEPTS),
      edge_connecting_ip: ip,
      edge_ipcountry: place.country,
      edge_ray: ray,
      host,
      referer: rng.pick(REFERERS),
      user_agent: ua,
      x_client_info: rng.chance(0.5) ? rng.pick(CLIENT_INFOS) : null,
      x_forwarded_proto: 'https',
      x_real_ip: rng.chance(0.9) ? ip : ctx.clients.clientIp(rng),
    },
    host,
    method,
    path: hit.path,
    protocol: 'https:',
    search: hit.search === '' ? null : hit.search,
    url,
  };
  if (ctx.shipper) {
    // Container log shipper access lines carry no url, host or search.
    request = { edge: request.edge, headers: request.headers, method, path: hit.path, protocol: 'https:' };
  }
  const event: EdgeEvent = {
    id: ctx.id,
    timestamp: ctx.timestamp,
    event_message: method + ' | ' + status + ' | ' + ip + ' | ' + ray + ' | ' + (ctx.shipper ? hit.path + hit.search : url) + ' | ' + ua,
    project: p.ref,
    metadata: {
      ingest_worker: { worker_id: ctx.workerIds[rng.below(ctx.workerIds.length)] },
      request,
      response: {
        headers: {
          edge_cache_status: cache,
          edge_ray: rng.hex(16) + '-' + place.colo,
          content_length: '' + contentLength,
          content_type: route.contentType,
          date: ctx.clock.httpDate(),
          gateway_mode: 'direct',
          gateway_version: '1',
        },
        origin_time: originMs,
        status_code: status,
      },
    },
  };
  if (ctx.shipper) event.appname = 'api-gateway';
  return event;
};
