// The live toggle's subscription (SPEC §3): a WebSocket to /api/endpoints/live/<name>?<params>; the
// token goes in the first message, never in the URL.

import { token } from './api.js';

export class LiveSubscription {
  /** handlers: { result(rows), append(rows), error(err), closed(code) } */
  constructor(name, values, handlers) {
    const proto = location.protocol === 'https:' ? 'wss:' : 'ws:';
    const qs = new URLSearchParams(values).toString();
    this.handlers = handlers;
    this.stopped = false;
    this.ws = new WebSocket(`${proto}//${location.host}/api/endpoints/live/${encodeURIComponent(name)}${qs ? '?' + qs : ''}`);
    this.ws.onopen = () => this.ws.send(JSON.stringify({ api_key: token.get() ?? '' }));
    this.ws.onmessage = (ev) => this.onMessage(ev.data);
    this.ws.onclose = (ev) => { if (!this.stopped) handlers.closed(ev.code); };
  }

  onMessage(data) {
    let msg;
    try { msg = JSON.parse(data); } catch { return; }
    if (msg.error) this.handlers.error(msg.error);
    else if (msg.append) this.handlers.append(msg.append);
    else if (msg.result) this.handlers.result(msg.result);
  }

  stop() {
    this.stopped = true;
    this.ws.close(1000);
  }
}
