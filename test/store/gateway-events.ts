// Seeded gateway-log events as bench/small-events.ts makes them: random ids, addresses and query values,
// the rest repeating; `pad` spaces at the end of each message make the rows bigger (store codec tests).

/** `n` events from `seed`; `pad` extra bytes per event message. */
export function gatewayEvents(n: number, pad = 0, seed = 5): Record<string, unknown>[] {
  let a = seed;
  const r = (): number => { a = (a * 1103515245 + 12345) % 2147483648; return a / 2147483648; };
  const hex = (k: number): string => Array.from({ length: k }, () => Math.floor(r() * 16).toString(16)).join('');
  const paths = ['/rest/v1/todos', '/auth/v1/token', '/storage/v1/object/public/a.png', '/functions/v1/hello'];
  return Array.from({ length: n }, (_, i) => {
    const p = paths[Math.floor(r() * paths.length)]!, project = `proj${i % 7}`;
    const url = `https://${project}.supabase.co${p}${r() < 0.5 ? `?id=eq.${Math.floor(r() * 100000)}` : ''}`;
    return {
      id: `${hex(8)}-${hex(4)}-4${hex(3)}-a${hex(3)}-${hex(12)}`, timestamp: 1794974400000000 + i * 604800, project,
      event_message: `GET | 200 | ${Math.floor(r() * 223)}.${Math.floor(r() * 255)}.${Math.floor(r() * 255)}.9 | ${hex(16)} | ${url} | curl/8.4.0${' '.repeat(pad)}`,
      metadata: { request: { method: 'GET', path: p, url, host: `${project}.supabase.co` }, response: { status_code: 200, origin_time: Math.floor(r() * 400) } },
    };
  });
}
