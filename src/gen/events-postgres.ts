// Builder for `postgres.logs` events: csvlog-style `parsed` records with a realistic severity mix
// (mostly LOG, some ERROR/WARNING, rare FATAL/PANIC), SQLSTATEs, sessions and client addresses.

import { Rng, Weighted } from './random.ts';
import { pgSeconds } from './time-format.ts';
import type { EventBuilder, GenContext } from './context.ts';
import type { Project } from './projects.ts';

interface PgLine {
  severity: string;
  sqlState: string;
  commandTag: string;
  backend: string;
  user: string;
  app: string;
  message: (rng: Rng, ctx: GenContext, p: Project) => string;
  query?: (rng: Rng, p: Project) => string;
  detail?: string;
  hint?: string;
  context?: string;
}

const USERS = ['postgres', 'authenticator', 'authenticator', 'authenticator', 'auth_admin', 'storage_admin', 'pooler', 'dashboard_user'];
const APPS = ['postgrest', 'auth', 'storage-api', 'realtime', 'psql', 'pg_dump', 'node-postgres', 'pooler', ''];

function q(rng: Rng, p: Project): string {
  const t = rng.pick(p.tables);
  switch (rng.below(5)) {
    case 0: return `select * from public.${t} where id = $1`;
    case 1: return `insert into public.${t} (id, created_at) values ($1, now())`;
    case 2: return `update public.${t} set updated_at = now() where id = $1`;
    case 3: return `WITH pgrst_source AS (SELECT "public"."${t}".* FROM "public"."${t}" LIMIT $1) SELECT count(*) FROM pgrst_source`;
    default: return `delete from public.${t} where id = $1`;
  }
}

const LINES: [PgLine, number][] = [
  [{ severity: 'LOG', sqlState: '00000', commandTag: 'authentication', backend: 'client backend', user: '', app: '', message: (rng, ctx) => `connection received: host=${ctx.clients.internalIp(rng)} port=${rng.int(30000, 65000)}` }, 20],
  [{ severity: 'LOG', sqlState: '00000', commandTag: 'authentication', backend: 'client backend', user: '', app: '', message: (rng) => `connection authorized: user=${rng.pick(USERS)} database=postgres application_name=${rng.pick(APPS) || 'psql'} SSL enabled (protocol=TLSv1.3, cipher=TLS_AES_256_GCM_SHA384, bits=256)` }, 14],
  [{ severity: 'LOG', sqlState: '00000', commandTag: 'idle', backend: 'client backend', user: '', app: '', message: (rng, ctx) => `disconnection: session time: 0:${String(rng.int(0, 59)).padStart(2, '0')}:${String(rng.int(0, 59)).padStart(2, '0')}.${rng.int(100, 999)} user=${rng.pick(USERS)} database=postgres host=${ctx.clients.internalIp(rng)} port=${rng.int(30000, 65000)}` }, 14],
  [{ severity: 'LOG', sqlState: '00000', commandTag: 'SELECT', backend: 'client backend', user: '', app: '', message: (rng, _c, p) => `duration: ${(rng.logNormal(40, 1.2)).toFixed(3)} ms  statement: ${q(rng, p)}`, query: q }, 12],
  [{ severity: 'LOG', sqlState: '00000', commandTag: 'SELECT', backend: 'client backend', user: 'pooler', app: 'pooler', message: () => 'pooler auth request: postgres' }, 6],
  [{ severity: 'LOG', sqlState: '00000', commandTag: '', backend: 'checkpointer', user: '', app: '', message: () => 'checkpoint starting: time' }, 2],
  [{ severity: 'LOG', sqlState: '00000', commandTag: '', backend: 'checkpointer', user: '', app: '', message: (rng) => `checkpoint complete: wrote ${rng.int(1, 4000)} buffers (${(rng.float() * 5).toFixed(1)}%); 0 WAL file(s) added, 0 removed, ${rng.int(0, 3)} recycled; write=${(rng.float() * 270).toFixed(3)} s, sync=0.0${rng.int(10, 99)} s, total=${(rng.float() * 270).toFixed(3)} s` }, 2],
  [{ severity: 'LOG', sqlState: '00000', commandTag: '', backend: 'autovacuum worker', user: '', app: '', message: (rng, _c, p) => `automatic vacuum of table "postgres.public.${rng.pick(p.tables)}": index scans: ${rng.int(0, 2)}` }, 3],
  [{ severity: 'LOG', sqlState: '00000', commandTag: '', backend: 'pg_cron launcher', user: '', app: '', message: (rng) => `cron job ${rng.int(1, 20)} starting: SELECT net.http_post(url := 'https://hooks.example.com/cron')` }, 1],
  [{ severity: 'INFO', sqlState: '00000', commandTag: 'VACUUM', backend: 'client backend', user: 'postgres', app: 'psql', message: (rng, _c, p) => `vacuuming "postgres.public.${rng.pick(p.tables)}"` }, 2],
  [{ severity: 'NOTICE', sqlState: '42P07', commandTag: 'CREATE TABLE', backend: 'client backend', user: 'postgres', app: 'psql', message: (rng, _c, p) => `relation "${rng.pick(p.tables)}" already exists, skipping` }, 2],
  [{ severity: 'NOTICE', sqlState: '00000', commandTag: 'DROP FUNCTION', backend: 'client backend', user: 'postgres', app: 'psql', message: () => 'function public.handle_new_user() does not exist, skipping' }, 1],
  [{ severity: 'WARNING', sqlState: '01000', commandTag: 'SELECT', backend: 'client backend', user: 'pooler', app: 'pooler', message: () => 'pooler auth request: postgres', context: 'PL/pgSQL function pooler.get_auth(text) line 3 at RAISE' }, 3],
  [{ severity: 'WARNING', sqlState: '25P01', commandTag: 'ROLLBACK', backend: 'client backend', user: 'postgres', app: 'node-postgres', message: () => 'there is no transaction in progress' }, 1.5],
  [{ severity: 'WARNING', sqlState: '57P02', commandTag: 'idle', backend: 'client backend', user: 'authenticator', app: 'postgrest', message: () => 'terminating connection because of crash of another server process', detail: 'The postmaster has commanded this server process to roll back the current transaction and exit.' }, 0.3],
  [{ severity: 'ERROR', sqlState: '42P01', commandTag: 'SELECT', backend: 'client backend', user: 'authenticator', app: 'postgrest', message: (rng, _c, p) => `relation "public.${rng.pick(p.tables)}s" does not exist`, query: q }, 2.5],
  [{ severity: 'ERROR', sqlState: '23505', commandTag: 'INSERT', backend: 'client backend', user: 'authenticator', app: 'postgrest', message: (rng, _c, p) => `duplicate key value violates unique constraint "${rng.pick(p.tables)}_pkey"`, query: q, detail: 'Key (id)=(42) already exists.' }, 2],
  [{ severity: 'ERROR', sqlState: '42501', commandTag: 'INSERT', backend: 'client backend', user: 'authenticator', app: 'postgrest', message: (rng, _c, p) => `new row violates row-level security policy for table "${rng.pick(p.tables)}"`, query: q }, 2],
  [{ severity: 'ERROR', sqlState: '42501', commandTag: 'SELECT', backend: 'client backend', user: 'authenticator', app: 'postgrest', message: () => 'permission denied for table secrets' }, 0.8],
  [{ severity: 'ERROR', sqlState: '42601', commandTag: 'SELECT', backend: 'client backend', user: 'postgres', app: 'psql', message: () => 'syntax error at or near "form"', query: () => 'select * form todos' }, 0.8],
  [{ severity: 'ERROR', sqlState: '42703', commandTag: 'SELECT', backend: 'client backend', user: 'authenticator', app: 'postgrest', message: () => 'column "nme" does not exist', hint: 'Perhaps you meant to reference the column "profiles.name".' }, 0.8],
  [{ severity: 'ERROR', sqlState: '57014', commandTag: 'SELECT', backend: 'client backend', user: 'authenticator', app: 'postgrest', message: () => 'canceling statement due to statement timeout', query: q }, 0.8],
  [{ severity: 'ERROR', sqlState: 'PGRST', commandTag: 'SELECT', backend: 'client backend', user: 'authenticator', app: 'postgrest', message: () => 'JWT expired' }, 0.3],
  [{ severity: 'FATAL', sqlState: '28P01', commandTag: 'authentication', backend: 'client backend', user: 'postgres', app: '', message: () => 'password authentication failed for user "postgres"', detail: 'Connection matched pg_hba.conf line 89: "host  all  all  0.0.0.0/0  scram-sha-256"' }, 0.8],
  [{ severity: 'FATAL', sqlState: '28000', commandTag: 'authentication', backend: 'client backend', user: 'postgres', app: '', message: (rng, ctx) => `no pg_hba.conf entry for host "${ctx.clients.clientIp(rng)}", user "postgres", database "postgres", SSL off` }, 0.4],
  [{ severity: 'FATAL', sqlState: '53300', commandTag: 'startup', backend: 'client backend', user: 'authenticator', app: '', message: () => 'remaining connection slots are reserved for non-replication superuser connections' }, 0.3],
  [{ severity: 'FATAL', sqlState: '57P01', commandTag: 'idle', backend: 'client backend', user: 'authenticator', app: 'postgrest', message: () => 'terminating connection due to administrator command' }, 0.3],
  [{ severity: 'PANIC', sqlState: '53100', commandTag: '', backend: 'walwriter', user: '', app: '', message: (rng) => `could not write to file "pg_wal/xlogtemp.${rng.int(100, 9999)}": No space left on device` }, 0.02],
];

const PG_LINES = new Weighted<PgLine>(LINES);

export const buildPostgresEvent: EventBuilder = (ctx, p) => {
  const rng = ctx.rng;
  const line = PG_LINES.pick(rng);
  const pid = rng.int(1000, 65000);
  const sessionStartUs = ctx.clock.us - rng.int(0, 7200) * 1_000_000;
  const sessionStartSec = Math.floor(sessionStartUs / 1_000_000);
  const client = line.backend === 'client backend';
  const from = !client ? '' : rng.chance(0.1) ? '[local]' : ctx.clients.internalIp(rng) + ':' + rng.int(30000, 65000);
  const parsed: Record<string, unknown> = {
    application_name: line.app || (client ? rng.pick(APPS) : ''),
    backend_type: line.backend,
    command_tag: line.commandTag,
    connection_from: from,
    context: line.context ?? null,
    database_name: client ? 'postgres' : '',
    detail: line.detail ?? null,
    error_severity: line.severity,
    hint: line.hint ?? null,
    leader_pid: 0,
    process_id: pid,
    query: line.query ? line.query(rng, p) : null,
    query_id: rng.chance(0.7) ? 0 : rng.int(1, 2 ** 52) * (rng.chance(0.5) ? -1 : 1),
    session_id: sessionStartSec.toString(16) + '.' + pid.toString(16),
    session_line_num: rng.int(1, 20000),
    session_start_time: pgSeconds(sessionStartUs),
    sql_state_code: line.sqlState,
    timestamp: ctx.clock.pgMillis(),
    transaction_id: line.commandTag === 'INSERT' || line.commandTag === 'UPDATE' ? rng.int(1000, 9_000_000) : 0,
    user_name: line.user || (client ? rng.pick(USERS) : ''),
    virtual_transaction_id: client ? rng.int(1, 40) + '/' + rng.int(1, 9_999_999) : '',
  };
  return {
    id: ctx.id,
    timestamp: ctx.timestamp,
    event_message: line.message(rng, ctx, p),
    project: p.ref,
    metadata: { host: p.dbHost, parsed },
  };
};
