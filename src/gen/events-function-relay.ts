// Builder for `function-relay-logs` events: one per edge-function invocation, with the relay's
// request (`pathname`, not `path`), response, deployment and execution time.

import { Weighted, weightedKeys } from './random.ts';
import { USER_AGENTS } from './client-pool.ts';
import type { EventBuilder } from './context.ts';

const METHODS = weightedKeys({ POST: 68, GET: 14, OPTIONS: 16, PUT: 1, DELETE: 1 });
const STATUSES = new Weighted<number>([
  [200, 860], [201, 20], [204, 10], [400, 25], [401, 25], [403, 5], [404, 10], [405, 3], [500, 30], [502, 4], [503, 3], [504, 5], [546, 2],
]);
const SERVER_REGIONS = ['us-east-1', 'us-west-1', 'eu-central-1', 'eu-west-2', 'ap-southeast-1', 'ap-northeast-1', 'sa-east-1'];

export const buildFunctionRelayEvent: EventBuilder = (ctx, p) => {
  const rng = ctx.rng;
  if (ctx.shipper) {
    // Shipper relay lines carry only the project ref: no request, no response.
    const fn = rng.pick(p.functions);
    return {
      id: ctx.id,
      timestamp: ctx.timestamp,
      event_message: 'POST | 200 | https://' + p.ref + '.functions.example.com/' + fn.name,
      project: p.ref,
      appname: 'functions-relay',
      metadata: { project_ref: p.ref },
    };
  }
  const fn = rng.pick(p.functions);
  const method = METHODS.pick(rng);
  const status = method === 'OPTIONS' ? 200 : STATUSES.pick(rng);
  const search = fn.name === 'connect-heartbeat' || rng.chance(0.15) ? '?time=' + Math.floor(ctx.clock.us / 1000) : '';
  const pathname = '/' + fn.name;
  let execMs = method === 'OPTIONS' ? rng.int(1, 15) : Math.round(rng.logNormal(180, 1.1));
  if (status === 504 || status === 546) execMs = rng.int(150_000, 400_000);
  const version = '' + fn.version;
  return {
    id: ctx.id,
    timestamp: ctx.timestamp,
    event_message: method + ' | ' + status + ' | https://' + p.ref + '.functions.example.com' + pathname + search,
    metadata: {
      deployment_id: p.ref + '_' + fn.id + '_' + version,
      execution_id: rng.uuid(),
      execution_time_ms: execMs,
      function_id: fn.id,
      project_ref: p.ref,
      request: {
        headers: {
          accept: rng.pick(['*/*', 'application/json']),
          accept_encoding: 'gzip, deflate, br',
          content_length: method === 'POST' ? '' + rng.int(2, 20000) : '0',
          host: p.ref + '.functions.example.com',
          user_agent: USER_AGENTS.pick(rng),
          x_forwarded_for: ctx.clients.clientIp(rng),
        },
        host: 'runtime-v1.functions.example.net',
        method,
        pathname,
        protocol: 'https:',
        search: search === '' ? null : search,
        url: 'https://runtime-v1.functions.example.net' + pathname + search,
      },
      response: {
        headers: {
          content_length: '' + (status === 200 ? rng.int(2, 50000) : rng.int(20, 300)),
          content_type: status === 200 && method !== 'OPTIONS' ? 'application/json' : 'text/plain;charset=UTF-8',
          date: ctx.clock.httpDate(),
          server: 'runtime/' + (rng.chance(0.7) ? p.region : rng.pick(SERVER_REGIONS)),
          vary: 'Accept-Encoding',
        },
        status_code: status,
      },
      version,
    },
  };
};
