// Builder for `auth.logs.prod` events: the auth server's JSON log lines (request started /
// completed, audit events such as logins, errors) as `event_message`, mirrored in `metadata`.

import { Weighted, weightedKeys } from './random.ts';
import type { EventBuilder } from './context.ts';

interface Kind {
  msg: string;
  component: string;
  method: string;
  paths: readonly string[];
  /** Audit action (login, logout, …) or '' for plain request lines. */
  action: string;
  /** Status for completed requests (0 = line has no status). */
  statuses: Weighted<number> | null;
  level: string;
  error: string;
}

const OK = new Weighted<number>([[200, 1]]);
const MIXED = new Weighted<number>([[200, 86], [400, 6], [401, 2], [403, 1], [404, 1], [422, 2], [429, 1.5], [500, 0.5]]);
const PATHS = ['/user', '/token', '/token', '/token', '/signup', '/otp', '/verify', '/logout', '/recover', '/settings', '/authorize', '/callback'];
const PROVIDERS = weightedKeys({ email: 55, github: 12, google: 20, apple: 5, phone: 5, azure: 3 });
const LOGIN_METHODS = ['password', 'pkce', 'otp', 'magiclink', 'oauth', 'token_refresh'];

const KINDS = new Weighted<Kind>([
  [{ msg: 'request started', component: 'api', method: '', paths: PATHS, action: '', statuses: null, level: 'info', error: '' }, 36],
  [{ msg: 'request completed', component: 'api', method: '', paths: PATHS, action: '', statuses: MIXED, level: 'info', error: '' }, 36],
  [{ msg: 'Login', component: 'api', method: 'POST', paths: ['/token'], action: 'login', statuses: OK, level: 'info', error: '' }, 8],
  [{ msg: 'Logout', component: 'api', method: 'POST', paths: ['/logout'], action: 'logout', statuses: OK, level: 'info', error: '' }, 2],
  [{ msg: 'token_refreshed', component: 'api', method: 'POST', paths: ['/token'], action: 'token_refreshed', statuses: OK, level: 'info', error: '' }, 6],
  [{ msg: 'token_revoked', component: 'api', method: 'POST', paths: ['/token'], action: 'token_revoked', statuses: OK, level: 'info', error: '' }, 2],
  [{ msg: 'user_signedup', component: 'api', method: 'POST', paths: ['/signup', '/verify'], action: 'user_signedup', statuses: OK, level: 'info', error: '' }, 1.5],
  [{ msg: '400: Invalid login credentials', component: 'api', method: 'POST', paths: ['/token'], action: '', statuses: new Weighted([[400, 1]]), level: 'info', error: 'invalid_grant: Invalid login credentials' }, 3],
  [{ msg: '401: invalid JWT: unable to parse or verify signature, token has invalid claims: token is expired', component: 'api', method: 'GET', paths: ['/user'], action: '', statuses: new Weighted([[401, 1]]), level: 'info', error: 'token is expired' }, 2],
  [{ msg: '429: Email rate limit exceeded', component: 'api', method: 'POST', paths: ['/otp', '/recover', '/signup'], action: '', statuses: new Weighted([[429, 1]]), level: 'warning', error: 'over_email_send_rate_limit' }, 0.8],
  [{ msg: 'Unhandled server error: failed to connect to `host=localhost user=auth_admin database=postgres`: dial error (dial tcp 127.0.0.1:5432: connect: connection refused)', component: 'api', method: 'POST', paths: ['/token', '/user'], action: '', statuses: new Weighted([[500, 1]]), level: 'error', error: 'failed to connect to database' }, 0.4],
  [{ msg: 'Metering disabled', component: 'api', method: '', paths: [''], action: '', statuses: null, level: 'info', error: '' }, 0.5],
  [{ msg: 'cleanup completed', component: 'cleanup', method: '', paths: [''], action: '', statuses: null, level: 'debug', error: '' }, 1],
  [{ msg: 'Starting mailer', component: 'mailer', method: '', paths: [''], action: '', statuses: null, level: 'info', error: '' }, 0.3],
]);

export const buildAuthEvent: EventBuilder = (ctx, p) => {
  const rng = ctx.rng;
  const kind = KINDS.pick(rng);
  const path = rng.pick(kind.paths);
  const isRequest = path !== '';
  const method = kind.method || (isRequest ? (path === '/user' || path === '/settings' || path === '/authorize' || path === '/callback' ? 'GET' : 'POST') : '');
  const status = kind.statuses ? kind.statuses.pick(rng) : 0;
  const remote = isRequest ? ctx.clients.clientIp(rng) : '';
  const requestId = isRequest ? rng.uuid() : '';
  const userId = kind.action || (isRequest && rng.chance(0.6)) ? rng.uuid() : '';
  const time = ctx.clock.isoSecondsZ();
  const level = status >= 500 ? 'error' : kind.level;
  const provider = kind.action === 'login' || kind.action === 'user_signedup' ? PROVIDERS.pick(rng) : '';
  const email = userId && kind.action ? 'user' + rng.int(1, 99999) + '@example.com' : '';
  const duration = status ? Math.round(rng.logNormal(30_000_000, 1)) : 0;
  const referer = isRequest && rng.chance(0.4) ? 'https://app.example.com/' : '';

  // The auth server's own line, key order as it logs it.
  const line: Record<string, unknown> = { component: kind.component, level };
  if (method) line.method = method;
  line.msg = kind.msg;
  if (isRequest) { line.path = path; line.referer = referer; line.remote_addr = remote; line.request_id = requestId; }
  if (status) { line.status = status; line.duration = duration; }
  if (kind.error) line.error = kind.error;
  if (kind.action) {
    line.action = kind.action;
    line.actor_id = userId;
    line.actor_username = email;
    line.log_type = kind.action === 'login' || kind.action === 'logout' ? 'account' : 'token';
  }
  line.time = time;
  line.timestamp = time;

  const event: Record<string, unknown> = {
    id: ctx.id,
    timestamp: ctx.timestamp,
    event_message: JSON.stringify(line),
    project: p.ref,
    metadata: {
      action: kind.action,
      args: kind.component === 'cleanup' ? ['--expired-tokens'] : [],
      auth_event: {
        action: kind.action,
        actor_id: kind.action ? userId : '',
        actor_name: '',
        actor_username: email,
        actor_via_sso: kind.action === 'login' && rng.chance(0.03),
        log_type: kind.action ? (line.log_type as string) : '',
        traits: {
          channel: provider === 'phone' ? 'sms' : provider === 'email' ? 'email' : '',
          provider,
          user_email: email,
          user_id: kind.action ? userId : '',
          user_phone: provider === 'phone' ? '+1555' + rng.int(1000000, 9999999) : '',
        },
      },
      client_id: '',
      component: kind.component,
      duration: status ? '' + duration : '',
      error: kind.error,
      factor_id: '',
      header: '',
      host: p.dbHost,
      instance_id: '00000000-0000-0000-0000-000000000000',
      issuer: 'https://' + p.ref + '.api.example.com/auth/v1',
      level,
      login_method: kind.action === 'login' ? rng.pick(LOGIN_METHODS) : '',
      message: '',
      metering: kind.action === 'login',
      method,
      msg: kind.msg,
      path,
      project: p.ref,
      provider,
      referer,
      remote_addr: remote,
      request_id: requestId,
      source_type: 'auth',
      // Real auth servers log a number; the sample's schema says STRING, so standard events carry text.
      status: ctx.shipper ? (status || null) : status ? '' + status : '',
      time,
      timestamp: time,
      user_id: userId,
    },
  };
  if (ctx.shipper) event.appname = 'auth-server';
  return event;
};
