// Builder for `rest.logs.prod` events: the REST API server's startup, schema-cache and
// connection messages plus its access-log lines (which carry client addresses).

import { Weighted } from './random.ts';
import { USER_AGENTS } from './client-pool.ts';
import type { EventBuilder, GenContext } from './context.ts';
import type { Project } from './projects.ts';

type Line = (ctx: GenContext, p: Project) => string;

const METHODS = ['GET', 'GET', 'GET', 'POST', 'PATCH', 'DELETE'];
const STATUS = [200, 200, 200, 200, 200, 201, 204, 400, 401, 404, 406, 500];

const LINES = new Weighted<Line>([
  [(c, p) => `${c.clients.clientIp(c.rng)} - ${c.rng.pick(['anon', 'authenticated', 'service_role'])} [${c.clock.httpDate()}] "${c.rng.pick(METHODS)} /${c.rng.pick(p.tables)} HTTP/1.1" ${c.rng.pick(STATUS)} ${c.rng.int(2, 9000)} "" "${USER_AGENTS.pick(c.rng)}"`, 55],
  [() => 'Attempting to connect to the database...', 6],
  [() => 'Connection successful', 6],
  [() => 'Listening on port 3000', 3],
  [() => 'Listening for notifications on the pgrst channel', 3],
  [(c) => `Schema cache loaded ${c.rng.int(3, 60)} Relations, ${c.rng.int(0, 40)} Relationships, ${c.rng.int(0, 80)} Functions, 0 Domain Representations, 4 Media Type Handlers`, 5],
  [() => 'Config reloaded', 3],
  [() => 'Schema cache queried in 12.3 milliseconds', 4],
  [(c) => `Failed to query database: connection to server at "${c.clients.internalIp(c.rng)}", port 5432 failed: Connection refused`, 2],
  [() => 'Retrying listening for notifications on the pgrst channel..', 1],
  [(c) => `An error ocurred when trying to query the database for the schema cache. Retrying the connection in ${c.rng.pick([1, 2, 4, 8, 16, 32])} seconds...`, 1],
]);

export const buildRestEvent: EventBuilder = (ctx, p) => {
  const event: Record<string, unknown> = {
    id: ctx.id,
    timestamp: ctx.timestamp,
    event_message: LINES.pick(ctx.rng)(ctx, p),
    project: p.ref,
    metadata: { host: p.ref },
  };
  if (ctx.shipper) event.appname = 'rest';
  return event;
};
