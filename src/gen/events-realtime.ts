// Builder for `realtime.logs.prod` events: Elixir logger output of the realtime service with its
// `context` (module, function, file, line, pid, node) and a level mix weighted to info.

import { Rng, Weighted } from './random.ts';
import type { EventBuilder } from './context.ts';
import type { Project } from './projects.ts';

interface Site {
  level: string;
  module: string;
  fn: string;
  file: string;
  line: number;
  message: (rng: Rng, p: Project) => string;
}

const CHANNEL = 'Elixir.RealtimeWeb.RealtimeChannel';
const TABLE_NAMES = ['messages', 'chats', 'rooms', 'presence', 'todos', 'orders'];

const SITES = new Weighted<Site>([
  [{ level: 'info', module: CHANNEL, fn: 'join/3', file: 'lib/realtime_web/channels/realtime_channel.ex', line: 72, message: (rng) => `Joined channel realtime:public:${rng.pick(TABLE_NAMES)}` }, 30],
  [{ level: 'info', module: 'Elixir.Realtime.Tenants.Connect', fn: 'connect/3', file: 'lib/realtime/tenants/connect.ex', line: 118, message: () => 'Tenant database connection pool started' }, 10],
  [{ level: 'info', module: 'Elixir.Extensions.PostgresCdcRls.ReplicationPoller', fn: 'handle_info/2', file: 'lib/extensions/postgres_cdc_rls/replication_poller.ex', line: 94, message: (rng) => `Starting replication for slot realtime_messages_replication_slot_${rng.hex(6)}` }, 8],
  [{ level: 'info', module: 'Elixir.RealtimeWeb.TenantBroadcaster', fn: 'broadcast/4', file: 'lib/realtime_web/tenant_broadcaster.ex', line: 31, message: (rng) => `Billing metrics: ${rng.int(1, 9000)} messages, ${rng.int(1, 400)} joins` }, 12],
  [{ level: 'info', module: CHANNEL, fn: 'handle_info/2', file: 'lib/realtime_web/channels/realtime_channel.ex', line: 204, message: () => 'Presence tracked' }, 10],
  [{ level: 'debug', module: 'Elixir.Realtime.SignalHandler', fn: 'handle_event/2', file: 'lib/realtime/signal_handler.ex', line: 19, message: () => 'Received heartbeat' }, 6],
  [{ level: 'warning', module: CHANNEL, fn: 'handle_info/2', file: 'lib/realtime_web/channels/realtime_channel.ex', line: 356, message: () => 'ChannelRateLimitReached: Too many messages per second' }, 3],
  [{ level: 'warning', module: 'Elixir.Realtime.Tenants.Connect', fn: 'connect/3', file: 'lib/realtime/tenants/connect.ex', line: 141, message: (rng) => `UnableToConnectToProject: Unable to connect to the database 10.0.${rng.int(0, 9)}.${rng.int(2, 250)}:5432 (timeout)` }, 1.5],
  [{ level: 'error', module: CHANNEL, fn: 'handle_info/2', file: 'lib/realtime_web/channels/realtime_channel.ex', line: 293, message: (rng) => `Subscribing to PostgreSQL failed: {:error, "Subscription insert failed with 0 rows. Check that tables are part of publication app_realtime and subscription params are correct: %{\\"event\\" => \\"INSERT\\", \\"filter\\" => \\"chat=eq.open\\", \\"schema\\" => \\"public\\", \\"table\\" => \\"${rng.pick(TABLE_NAMES)}\\"}"}` }, 2.5],
  [{ level: 'error', module: CHANNEL, fn: 'join/3', file: 'lib/realtime_web/channels/realtime_channel.ex', line: 120, message: () => 'UnableToSetPolicies: Unable to set policies for connection' }, 1],
  [{ level: 'error', module: 'Elixir.Realtime.Tenants.Connect', fn: 'handle_continue/2', file: 'lib/realtime/tenants/connect.ex', line: 212, message: () => '** (DBConnection.ConnectionError) tcp recv (idle): closed' }, 0.5],
]);

export const buildRealtimeEvent: EventBuilder = (ctx, p) => {
  const rng = ctx.rng;
  const site = SITES.pick(rng);
  const slash = site.fn.lastIndexOf('/');
  const event: Record<string, unknown> = {
    id: ctx.id,
    timestamp: ctx.timestamp,
    event_message: site.message(rng, p),
    metadata: {
      context: {
        application: 'realtime',
        domain: ['elixir'],
        file: site.file,
        function: site.fn,
        gl: '<0.' + rng.int(1000, 9999) + '.0>',
        line: site.line,
        mfa: [site.module, site.fn.slice(0, slash), site.fn.slice(slash + 1)],
        module: site.module,
        pid: '<0.' + rng.int(100, 99999) + '.' + rng.int(0, 200) + '>',
        time: ctx.clock.us,
        vm: { node: p.realtimeNode },
      },
      external_id: p.ref,
      level: site.level,
      project: p.ref,
    },
  };
  if (ctx.shipper) { event.project = p.ref; event.appname = 'realtime'; }
  return event;
};
