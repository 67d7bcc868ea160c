// Builder for `pooler.logs.prod` events: pgbouncer-style connection pooler lines with
// client/server ids and `ip:port` pairs, plus periodic stats and the odd pooler error.

import { Weighted } from './random.ts';
import type { EventBuilder, GenContext } from './context.ts';

type Line = (ctx: GenContext, id: string) => string;

const DBS = ['postgres/postgres', 'postgres/authenticator', 'postgres/authenticator', 'postgres/pgbouncer', 'postgres/dashboard_user'];

const LINES = new Weighted<Line>([
  [(c, id) => `S-0x${id}: ${c.rng.pick(DBS)}@127.0.0.1:5432 new connection to server (from 127.0.0.1:${c.rng.int(30000, 65000)})`, 20],
  [(c, id) => `C-0x${id}: ${c.rng.pick(DBS)}@${c.clients.clientIp(c.rng)}:${c.rng.int(1024, 65000)} login attempt: db=postgres user=${c.rng.pick(['postgres', 'authenticator'])} tls=${c.rng.chance(0.7) ? 'TLSv1.3/TLS_AES_256_GCM_SHA384/ECDH=X25519' : 'no'}`, 25],
  [(c, id) => `C-0x${id}: ${c.rng.pick(DBS)}@${c.clients.clientIp(c.rng)}:${c.rng.int(1024, 65000)} closing because: client close request (age=${c.rng.int(0, 3600)}s)`, 22],
  [(c, id) => `S-0x${id}: ${c.rng.pick(DBS)}@127.0.0.1:5432 closing because: server idle timeout (age=${c.rng.int(600, 700)}s)`, 8],
  [(c) => `stats: ${c.rng.int(0, 300)} xacts/s, ${c.rng.int(0, 900)} queries/s, in ${c.rng.int(100, 90000)} B/s, out ${c.rng.int(100, 900000)} B/s, xact ${c.rng.int(100, 90000)} us, query ${c.rng.int(50, 20000)} us, wait ${c.rng.int(0, 5000)} us`, 15],
  [(c, id) => `C-0x${id}: ${c.rng.pick(DBS)}@${c.clients.clientIp(c.rng)}:${c.rng.int(1024, 65000)} pooler error: no more connections allowed (max_client_conn)`, 1.5],
  [(c, id) => `C-0x${id}: ${c.rng.pick(DBS)}@${c.clients.clientIp(c.rng)}:${c.rng.int(1024, 65000)} pooler error: password authentication failed`, 2],
  [(c, id) => `S-0x${id}: ${c.rng.pick(DBS)}@127.0.0.1:5432 closing because: server conn crashed? (age=${c.rng.int(0, 9000)}s)`, 0.5],
]);

export const buildPoolerEvent: EventBuilder = (ctx, p) => {
  const event: Record<string, unknown> = {
    id: ctx.id,
    timestamp: ctx.timestamp,
    event_message: LINES.pick(ctx.rng)(ctx, 'aaab0' + ctx.rng.hex(7)),
    project: p.ref,
    metadata: { host: p.dbHost },
  };
  if (ctx.shipper) event.appname = 'pooler';
  return event;
};
