// The API routes behind the edge proxy, with their traffic share, methods, query strings,
// response types and latency: REST, storage, auth and realtime dominate; functions, graphql,
// pg-meta and a few stray paths make up the rest.

import { Rng, Weighted, weightedKeys } from './random.ts';
import type { Project } from './projects.ts';

export interface RouteHit {
  path: string;
  search: string;
}

export interface Route {
  methods: Weighted<string>;
  build: (rng: Rng, p: Project) => RouteHit;
  contentType: string;
  /** Median origin time in ms. */
  originMs: number;
  /** Static asset (cacheable at the edge). */
  static: boolean;
  /** Status code table for this route. */
  statuses: Weighted<number>;
}

const API_STATUSES = new Weighted<number>([
  [200, 820], [201, 40], [204, 25], [206, 5], [304, 15], [400, 18], [401, 22], [403, 10], [404, 20], [406, 6],
  [409, 5], [416, 1], [422, 3], [429, 4], [500, 4], [502, 1.5], [503, 1], [504, 1], [520, 0.3], [522, 0.2],
]);
const WRITE_STATUSES = new Weighted<number>([
  [201, 700], [200, 120], [204, 60], [400, 40], [401, 25], [403, 15], [409, 20], [422, 8], [500, 6], [503, 2],
]);
const AUTH_STATUSES = new Weighted<number>([
  [200, 800], [400, 70], [401, 40], [403, 10], [404, 5], [422, 30], [429, 20], [500, 4], [504, 1],
]);
const STORAGE_STATUSES = new Weighted<number>([
  [200, 800], [206, 20], [304, 60], [400, 20], [403, 15], [404, 60], [413, 3], [500, 4], [503, 2],
]);
const WS_STATUSES = new Weighted<number>([[101, 950], [400, 10], [401, 15], [403, 5], [429, 5], [500, 3], [503, 2]]);

const GET = weightedKeys({ GET: 1 });
const REST_METHODS = weightedKeys({ GET: 70, POST: 12, PATCH: 7, DELETE: 3, OPTIONS: 6, HEAD: 2 });
const POST = weightedKeys({ POST: 1 });
const POST_OPTIONS = weightedKeys({ POST: 85, OPTIONS: 15 });
const FN_METHODS = weightedKeys({ POST: 70, GET: 15, OPTIONS: 15 });

const SELECTS = ['*', 'id,name', 'id,created_at,status', '*,profiles(*)', 'count', 'id,title,body,author:profiles(username)'];
const FILES = ['photo.png', 'avatar.jpg', 'logo.svg', 'report.pdf', 'banner.webp', 'image-1.jpeg', 'cover.png', 'invoice-0042.pdf'];
const RPC = ['get_feed', 'search_items', 'increment_counter', 'handle_new_user', 'nearby_places', 'get_stats'];
const GRANTS = ['password', 'refresh_token', 'refresh_token', 'refresh_token', 'pkce', 'id_token'];
const PROVIDERS = ['github', 'google', 'apple', 'azure', 'discord'];

function restSearch(rng: Rng): string {
  const r = rng.float();
  if (r < 0.25) return '?select=' + rng.pick(SELECTS);
  if (r < 0.5) return '?select=' + rng.pick(SELECTS) + '&id=eq.' + rng.int(1, 50000);
  if (r < 0.65) return '?select=' + rng.pick(SELECTS) + '&order=created_at.desc&limit=' + rng.pick([10, 20, 50, 100]);
  if (r < 0.75) return '?user_id=eq.' + rng.uuid();
  if (r < 0.8) return '?select=*&offset=' + rng.int(0, 20) * 20 + '&limit=20';
  return '';
}

function route(weightsAndRoute: Omit<Route, 'statuses'> & { statuses?: Weighted<number> }): Route {
  return { statuses: API_STATUSES, ...weightsAndRoute };
}

const JSON_T = 'application/json';
const ROUTES: [Route, number][] = [
  [route({ methods: REST_METHODS, contentType: JSON_T, originMs: 25, static: false, build: (rng, p) => ({ path: '/rest/v1/' + rng.pick(p.tables), search: restSearch(rng) }) }), 38],
  [route({ methods: POST, contentType: JSON_T, originMs: 60, static: false, statuses: WRITE_STATUSES, build: (rng) => ({ path: '/rest/v1/rpc/' + rng.pick(RPC), search: '' }) }), 6],
  [route({ methods: GET, contentType: 'application/openapi+json', originMs: 80, static: false, build: () => ({ path: '/rest/v1/', search: '' }) }), 1],
  [route({ methods: GET, contentType: 'image/webp', originMs: 120, static: true, statuses: STORAGE_STATUSES, build: (rng, p) => ({ path: '/storage/v1/render/image/public/' + rng.pick(p.buckets) + '/' + rng.pick(FILES), search: '?width=' + rng.pick([64, 128, 320, 640, 1920]) + '&height=0&quality=' + rng.pick([75, 80, 85]) + '&resize=contain' }) }), 4],
  [route({ methods: GET, contentType: 'image/png', originMs: 40, static: true, statuses: STORAGE_STATUSES, build: (rng, p) => ({ path: '/storage/v1/object/public/' + rng.pick(p.buckets) + '/' + rng.pick(FILES), search: '' }) }), 7],
  [route({ methods: weightedKeys({ POST: 80, PUT: 20 }), contentType: JSON_T, originMs: 250, static: false, statuses: WRITE_STATUSES, build: (rng, p) => ({ path: '/storage/v1/object/' + rng.pick(p.buckets) + '/' + rng.hex(8) + '/' + rng.pick(FILES), search: '' }) }), 2],
  [route({ methods: POST, contentType: JSON_T, originMs: 35, static: false, statuses: STORAGE_STATUSES, build: (rng, p) => ({ path: (rng.chance(0.5) ? '/storage/v1/object/sign/' : '/storage/v1/object/list/') + rng.pick(p.buckets), search: '' }) }), 2],
  [route({ methods: GET, contentType: JSON_T, originMs: 20, static: false, statuses: STORAGE_STATUSES, build: () => ({ path: '/storage/v1/bucket', search: '' }) }), 1],
  [route({ methods: POST, contentType: JSON_T, originMs: 90, static: false, statuses: AUTH_STATUSES, build: (rng) => ({ path: '/auth/v1/token', search: '?grant_type=' + rng.pick(GRANTS) }) }), 8],
  [route({ methods: GET, contentType: JSON_T, originMs: 15, static: false, statuses: AUTH_STATUSES, build: () => ({ path: '/auth/v1/user', search: '' }) }), 5],
  [route({ methods: POST_OPTIONS, contentType: JSON_T, originMs: 180, static: false, statuses: AUTH_STATUSES, build: (rng) => ({ path: rng.pick(['/auth/v1/signup', '/auth/v1/otp', '/auth/v1/verify', '/auth/v1/recover', '/auth/v1/logout']), search: '' }) }), 2],
  [route({ methods: GET, contentType: 'text/html; charset=utf-8', originMs: 40, static: false, statuses: AUTH_STATUSES, build: (rng) => ({ path: rng.chance(0.5) ? '/auth/v1/authorize' : '/auth/v1/callback', search: '?provider=' + rng.pick(PROVIDERS) + '&redirect_to=https%3A%2F%2Fapp.example.com%2F' }) }), 1],
  [route({ methods: GET, contentType: JSON_T, originMs: 8, static: false, statuses: AUTH_STATUSES, build: () => ({ path: '/auth/v1/settings', search: '' }) }), 0.5],
  [route({ methods: GET, contentType: 'text/plain', originMs: 30, static: false, statuses: WS_STATUSES, build: (rng) => ({ path: '/realtime/v1/websocket', search: '?apikey=' + 'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.' + rng.hex(12) + '&vsn=1.0.0' }) }), 5],
  [route({ methods: POST, contentType: JSON_T, originMs: 25, static: false, statuses: WRITE_STATUSES, build: () => ({ path: '/realtime/v1/api/broadcast', search: '' }) }), 1],
  [route({ methods: FN_METHODS, contentType: JSON_T, originMs: 150, static: false, build: (rng, p) => ({ path: '/functions/v1/' + rng.pick(p.functions).name, search: rng.chance(0.2) ? '?time=' + rng.int(1_600_000_000_000, 1_800_000_000_000) : '' }) }), 6],
  [route({ methods: POST, contentType: JSON_T, originMs: 45, static: false, build: () => ({ path: '/graphql/v1', search: '' }) }), 3],
  [route({ methods: weightedKeys({ GET: 60, POST: 40 }), contentType: JSON_T, originMs: 70, static: false, build: (rng) => ({ path: rng.pick(['/pg-meta/default/query', '/pg-meta/default/tables', '/pg-meta/default/columns', '/pg-meta/default/policies']), search: rng.chance(0.5) ? '?key=' + rng.hex(8) : '' }) }), 2],
  [route({ methods: GET, contentType: 'text/html; charset=utf-8', originMs: 5, static: true, build: (rng) => ({ path: rng.pick(['/', '/favicon.ico', '/robots.txt', '/.env', '/wp-login.php', '/customer/v1/privileged/metrics', '/platform/health']), search: '' }) }), 2],
];

export const EDGE_ROUTES = new Weighted<Route>(ROUTES);
