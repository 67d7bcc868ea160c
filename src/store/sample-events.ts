// One event per source with the field shapes of SAMPLE-EVENTS.md (values shortened), used to seed
// each source's schema so saved queries bind before any event has arrived.

import type { SourceName } from './sources.ts';

const edge = {
  event_message: 'GET | 200 | 203.0.113.48 | 7ac6d98c6d4558de | https://default.api.example.com/rest/v1/t/ | Mozilla/5.0',
  project: 'default',
  metadata: {
    ingest_worker: { worker_id: '0749QS' },
    request: {
      edge: {
        asOrganization: 'ACME', asn: 3209,
        botManagement: { corporateProxy: false, ja3Hash: 'x', score: 98, staticResource: true, verifiedBot: false },
        city: 'Berlin', clientAcceptEncoding: 'gzip', clientTrustScore: 98, colo: 'TXL', continent: 'EU', country: 'DE',
        edgeRequestKeepAliveStatus: 1, httpProtocol: 'HTTP/3', isEUCountry: '1', latitude: '51.75670', longitude: '9.64260',
        postalCode: '25335', region: 'Holstein', regionCode: 'SH', timezone: 'Europe/Berlin', tlsCipher: 'AEAD-AES128-GCM-SHA256',
        tlsClientAuth: { certPresented: '0', certRevoked: '0', certVerified: 'NONE' },
        tlsExportedAuthenticator: { clientFinished: 'x', clientHandshake: 'x', serverFinished: 'x', serverHandshake: 'x' },
        tlsVersion: 'TLSv1.3',
      },
      headers: {
        accept: 'application/json', edge_connecting_ip: '203.0.113.48', edge_ipcountry: 'DE', edge_ray: 'x', host: 'x',
        referer: 'x', user_agent: 'x', x_forwarded_proto: 'https', x_real_ip: '198.51.100.23',
      },
      host: 'default.api.example.com', method: 'GET', path: '/rest/v1/some_table', protocol: 'https:', search: '?a=1',
      url: 'https://default.api.example.com/rest/v1/some_table',
    },
    response: {
      headers: { edge_cache_status: 'HIT', edge_ray: 'x', content_length: '40766', content_type: 'application/json', date: 'x', gateway_mode: 'direct', gateway_version: '1' },
      origin_time: 102,
      status_code: 200,
    },
  },
};

const postgres = {
  event_message: 'x', project: 'default',
  metadata: {
    host: 'db-default',
    parsed: {
      backend_type: 'x', command_tag: 'SELECT', connection_from: 'x', context: 'x', database_name: 'postgres', error_severity: 'WARNING',
      leader_pid: 0, process_id: 19302, query_id: 0, session_id: 'x', session_line_num: 5215, session_start_time: 'x',
      sql_state_code: '01000', timestamp: '2023-03-23 14:40:18.149 UTC', transaction_id: 0, user_name: 'pooler', virtual_transaction_id: 'x',
    },
  },
};

const relay = {
  event_message: 'x',
  metadata: {
    deployment_id: 'x', execution_time_ms: 9, function_id: 'x', project_ref: 'default',
    request: {
      headers: { accept: '*/*', accept_encoding: 'x', content_length: '0', host: 'x', user_agent: 'x' },
      host: 'x', method: 'OPTIONS', pathname: '/connect-heartbeat', protocol: 'https:', search: '?t=1', url: 'x',
    },
    response: { headers: { content_length: '2', content_type: 'x', date: 'x', server: 'x', vary: 'x' }, status_code: 200 },
    version: '11',
  },
};

const runtime = {
  event_message: 'x',
  metadata: {
    deployment_id: 'x', event_type: 'log', execution_id: 'x', function_id: 'x', level: 'info', project_ref: 'default',
    region: 'eu-central-1', timestamp: '2023-03-23T14:34:17.643993277+00:00', version: '773',
  },
};

const auth = {
  event_message: 'x', project: 'default',
  metadata: {
    action: 'x', args: ['arg'],
    auth_event: {
      action: 'x', actor_id: 'x', actor_name: 'x', actor_username: 'x', actor_via_sso: false, log_type: 'x',
      traits: { channel: 'x', provider: 'oidc', user_email: 'x', user_id: 'x', user_phone: 'x' },
    },
    client_id: 'x', component: 'api', duration: '123sec', error: 'x', factor_id: 'x', header: 'x', host: 'x', instance_id: 'x',
    issuer: 'x', level: 'info', login_method: 'x', message: 'x', metering: false, method: 'GET', msg: 'x', path: '/user',
    project: 'x', provider: 'oidc', referer: 'x', remote_addr: 'x', request_id: 'x', source_type: 'x', status: 'x',
    time: 'x', timestamp: 'x', user_id: 'x',
  },
};

const realtime = {
  event_message: 'x',
  metadata: {
    context: {
      application: 'realtime', domain: ['elixir'], file: 'x', function: 'x', gl: 'x', line: 293, mfa: ['a', 'b', '2'],
      module: 'x', pid: 'x', time: 1679582313259245, vm: { node: 'x' },
    },
    external_id: 'default', level: 'error', project: 'default',
  },
};

const storage = {
  event_message: 'x',
  metadata: { context: { host: 'x', pid: 1 }, level: 'info', project: 'default', reqId: 'x', tenantId: 'default' },
};

const rest = { event_message: 'x', project: 'default', metadata: { host: 'default' } };
const pooler = { event_message: 'x', project: 'default', metadata: { host: 'db-default' } };

/** Sample event per source name. */
export const SAMPLE_EVENTS: Readonly<Record<string, Record<string, unknown>>> = {
  'edge.logs.prod': edge,
  'postgres.logs': postgres,
  'function-relay-logs': relay,
  'function-runtime-events': runtime,
  'auth.logs.prod': auth,
  'realtime.logs.prod': realtime,
  'storage.logs.prod': storage,
  'rest.logs.prod': rest,
  'pooler.logs.prod': pooler,
} satisfies Record<SourceName, Record<string, unknown>>;
