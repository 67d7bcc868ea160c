// Builder for `function-runtime-events` events: console output, boot/shutdown and uncaught
// exceptions of edge functions, with levels and ns-precision runtime timestamps.

import { Rng, Weighted } from './random.ts';
import type { EventBuilder } from './context.ts';

interface Kind {
  eventType: string;
  level: Weighted<string>;
  message: (rng: Rng) => string;
}

const LOG_LEVELS = new Weighted<string>([['info', 55], ['log', 20], ['debug', 8], ['warn', 9], ['warning', 1], ['error', 7]]);
const ERROR = new Weighted<string>([['error', 95], ['fatal', 5]]);
const INFO = new Weighted<string>([['info', 1]]);

const LOG_LINES: ((rng: Rng) => string)[] = [
  (rng) => `Processing order ${rng.int(1000, 99999)}\n`,
  (rng) => `${rng.hex(10)} some text\n`,
  (rng) => `user ${rng.uuid()} signed in\n`,
  (rng) => `fetched ${rng.int(0, 500)} rows in ${rng.int(1, 900)}ms\n`,
  () => 'Listening on http://localhost:9999/\n',
  (rng) => `sending email to user${rng.int(1, 9999)}@example.com\n`,
  (rng) => `webhook received: evt_${rng.hex(24)}\n`,
  (rng) => `request from ${rng.int(1, 223)}.${rng.int(0, 255)}.${rng.int(0, 255)}.${rng.int(1, 254)}\n`,
  (rng) => `Error: Failed to fetch user ${rng.int(1, 999)}: 404 Not Found\n    at getUser (file:///src/index.ts:${rng.int(10, 80)}:11)\n`,
  () => 'Warning: deprecated option "legacy" used\n',
];

const KINDS = new Weighted<Kind>([
  [{ eventType: 'log', level: LOG_LEVELS, message: (rng) => rng.pick(LOG_LINES)(rng) }, 86],
  [{ eventType: 'boot', level: INFO, message: (rng) => `booted (time: ${rng.int(8, 120)}ms)\n` }, 6],
  [{ eventType: 'shutdown', level: INFO, message: (rng) => `shutdown (reason: ${rng.pick(['EventLoopCompleted', 'WallClockTime', 'EarlyDrop', 'Memory'])})\n` }, 5.5],
  [{ eventType: 'uncaughtException', level: ERROR, message: (rng) => `TypeError: Cannot read properties of undefined (reading '${rng.pick(['id', 'data', 'email', 'length'])}')\n    at Server.<anonymous> (file:///src/index.ts:${rng.int(5, 120)}:${rng.int(3, 40)})\n` }, 2],
  [{ eventType: 'earlyDrop', level: ERROR, message: () => 'event loop error: connection closed before message completed\n' }, 0.5],
]);

export const buildFunctionRuntimeEvent: EventBuilder = (ctx, p) => {
  const rng = ctx.rng;
  const fn = rng.pick(p.functions);
  const kind = KINDS.pick(rng);
  const version = '' + fn.version;
  return {
    id: ctx.id,
    timestamp: ctx.timestamp,
    event_message: kind.message(rng),
    metadata: {
      deployment_id: p.ref + '_' + fn.id + '_' + version,
      event_type: kind.eventType,
      execution_id: rng.uuid(),
      function_id: fn.id,
      level: kind.level.pick(rng),
      project_ref: p.ref,
      region: p.region,
      timestamp: ctx.clock.isoNanosOffset(rng.below(1000)),
      version,
    },
  };
};
