// Builder for `storage.logs.prod` events: the storage API's request, object and error lines with
// the edge ray as `reqId`; shipper variants carry `metadata.context` already as an array.

import { Rng, Weighted } from './random.ts';
import type { EventBuilder } from './context.ts';
import type { Project } from './projects.ts';

type Line = [level: string, message: (rng: Rng, p: Project) => string];

const FILES = ['photo.png', 'avatar.jpg', 'report.pdf', 'banner.webp', 'video.mp4', 'notes.txt'];
const COLOS = ['IAD', 'EWR', 'SFO', 'FRA', 'LHR', 'DUB', 'CDG', 'AMS', 'GRU', 'BOM', 'SIN', 'NRT', 'SYD'];

const LINES = new Weighted<Line>([
  [['info', () => 'incoming request'], 25],
  [['info', () => 'request completed'], 25],
  [['info', (rng, p) => `Getting object ${rng.pick(p.buckets)}/${rng.pick(FILES)}`], 12],
  [['info', (rng, p) => `Uploading object ${rng.pick(p.buckets)}/${rng.hex(8)}/${rng.pick(FILES)}`], 6],
  [['info', () => 'content-type is text/plain;charset=UTF-8'], 4],
  [['info', (rng) => `[Tus] upload ${rng.hex(16)} finished`], 2],
  [['info', (rng) => `image transformation completed in ${rng.int(20, 900)}ms`], 4],
  [['warn', () => 'Object not found'], 6],
  [['warn', () => 'InvalidJWT: jwt expired'], 2],
  [['warn', (rng) => `request rate limited for ${rng.int(1, 223)}.${rng.int(0, 255)}.${rng.int(0, 255)}.${rng.int(1, 254)}`], 0.7],
  [['error', () => 'new row violates row-level security policy for table "objects"'], 2],
  [['error', () => 'The resource was not found'], 1],
  [['error', () => 'Internal Server Error: connect ETIMEDOUT'], 0.5],
]);

export const buildStorageEvent: EventBuilder = (ctx, p) => {
  const rng = ctx.rng;
  const [level, message] = LINES.pick(rng);
  const context = { host: p.storageHost, pid: 1 };
  const event: Record<string, unknown> = {
    id: ctx.id,
    timestamp: ctx.timestamp,
    event_message: message(rng, p),
    metadata: {
      context: ctx.shipper ? [context] : context,
      level,
      project: p.ref,
      reqId: rng.hex(16) + '-' + rng.pick(COLOS),
      tenantId: p.ref,
    },
  };
  if (ctx.shipper) { event.project = p.ref; event.appname = 'storage-api'; }
  return event;
};
