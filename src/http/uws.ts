// Loads uWebSockets.js — the only module that imports it at run time — and refuses the slow pure-JS
// fallback it silently returns when its native binary does not load.

import type * as UwsModule from 'uWebSockets.js';
import type { TemplatedApp, us_listen_socket } from 'uWebSockets.js';

/** The app as the native binary has it: the typings lack close() and the (host, port, options, cb) listen. */
export type UwsApp = TemplatedApp & {
  close(): void;
  listen(host: string, port: number, options: number, cb: (socket: us_listen_socket | false) => void): UwsApp;
};

export type Uws = Omit<typeof UwsModule, 'App'> & {
  App(): UwsApp;
  LIBUS_LISTEN_EXCLUSIVE_PORT: number;
};

/** Throws unless `mod` is the native uWebSockets.js build (only the native one has getParts). */
export function assertNativeUws(mod: unknown): Uws {
  const candidate = mod as { getParts?: unknown } | null;
  if (!candidate || typeof candidate.getParts !== 'function') {
    throw new Error(
      'uWebSockets.js loaded its pure-JS fallback instead of the native binary (this build needs Node 20, ABI 115, ' +
        'on linux/darwin/win32 x64 or arm64); refusing to run degraded. Reinstall with `npm ci` on a supported platform.',
    );
  }
  return mod as Uws;
}

import { UWS_HEADER_BUFFER_BYTES } from '../core/config.ts';

let loaded: Promise<Uws> | null = null;

/**
 * Header bytes a uWS build that reads UWS_HTTP_MAX_HEADERS_SIZE (when it loads) may buffer: above our own
 * URL and header-block limits, so that ringql, not uWS, answers 414/431. The build installed here
 * (20.30 unofficial) ignores the variable: it parses a request head of any size that arrives in one
 * read, closes the connection when a head split over several reads exceeds 4 KiB, and cannot parse
 * more than 48 header lines (see README, limits).
 */
export { UWS_HEADER_BUFFER_BYTES } from '../core/config.ts';

/** Imports uWebSockets.js once. */
export function loadUws(): Promise<Uws> {
  process.env.UWS_HTTP_MAX_HEADERS_SIZE ??= UWS_HEADER_BUFFER_BYTES;
  loaded ??= import('uWebSockets.js').then((m) => assertNativeUws((m as { default?: unknown }).default ?? m));
  return loaded;
}
