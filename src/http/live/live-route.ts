// Registers the live subscription WebSocket (`/api/endpoints/live/<id-or-name>`) on the uWS app: the
// upgrade copies the request, and the socket's events go to the LiveHub through a small adapter.

import type { WebSocket } from 'uWebSockets.js';
import { copyRequest } from '../request-info.ts';
import type { UwsApp } from '../uws.ts';
import type { LiveHub, LiveRequestInfo, LiveSocket } from './live-hub.ts';

export const LIVE_PATH = '/api/endpoints/live/:idOrName';

interface SocketData {
  info: LiveRequestInfo;
  sub: ReturnType<LiveHub['open']> | null;
  /** Set by the close event: uWS forbids touching a closed socket. */
  gone: boolean;
}

/** Bytes uWS may hold for one socket; above the hub's own bound, so uWS never drops a message silently first. */
const UWS_MAX_BACKPRESSURE = 256 * 1024 * 1024;

function adapt(ws: WebSocket<SocketData>): LiveSocket {
  const data = ws.getUserData();
  return {
    send: (text) => {
      if (data.gone) return false;
      let status = 0;
      ws.cork(() => {
        status = ws.send(text, false);
      });
      return status !== 2;
    },
    end: (code, reason) => {
      if (data.gone) return;
      data.gone = true;
      ws.cork(() => ws.end(code, reason));
    },
    bufferedAmount: () => (data.gone ? 0 : ws.getBufferedAmount()),
  };
}

function decodeSegment(raw: string): string {
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw;
  }
}

export function addLiveRoute(app: UwsApp, hub: LiveHub): void {
  app.ws<SocketData>(LIVE_PATH, {
    maxPayloadLength: 16 * 1024,
    maxBackpressure: UWS_MAX_BACKPRESSURE,
    idleTimeout: 120,
    sendPingsAutomatically: true,
    upgrade: (res, req, context) => {
      const copied = copyRequest(req);
      const info: LiveRequestInfo = {
        endpoint: decodeSegment(req.getParameter(0) ?? ''),
        query: copied.query,
        authorization: copied.authorization,
        apiKey: copied.apiKey,
        redactHeader: copied.redactHeader,
        urlBytes: copied.urlBytes,
      };
      const key = req.getHeader('sec-websocket-key');
      const protocol = req.getHeader('sec-websocket-protocol');
      const extensions = req.getHeader('sec-websocket-extensions');
      res.upgrade<SocketData>({ info, sub: null, gone: false }, key, protocol, extensions, context);
    },
    open: (ws) => {
      const data = ws.getUserData();
      data.sub = hub.open(adapt(ws), data.info);
    },
    message: (ws, message) => {
      const data = ws.getUserData();
      if (data.sub) hub.message(data.sub, Buffer.from(new Uint8Array(message)));
    },
    close: (ws) => {
      const data = ws.getUserData();
      data.gone = true;
      if (data.sub) hub.closed(data.sub);
    },
  });
}
