// Calls the ringql API like any client: the token from session storage in the Authorization header,
// JSON in and out, errors thrown as ApiError carrying the `{"error": {...}}` body.

const TOKEN_KEY = 'ringql.token';

export const token = {
  get: () => sessionStorage.getItem(TOKEN_KEY),
  set: (t) => sessionStorage.setItem(TOKEN_KEY, t),
  clear: () => sessionStorage.removeItem(TOKEN_KEY),
};

export class ApiError extends Error {
  constructor(status, error) {
    super(error?.message ?? `HTTP ${status}`);
    this.status = status;
    this.error = error ?? { code: 'http_' + status, message: `HTTP ${status}` };
  }
}

export async function api(path, { method = 'GET', body } = {}) {
  const headers = { Authorization: `Bearer ${token.get() ?? ''}`, Accept: 'application/json' };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  const res = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await res.text();
  let json = null;
  try { json = text ? JSON.parse(text) : null; } catch { /* a non-JSON answer is reported by status below */ }
  if (!res.ok) throw new ApiError(res.status, json?.error);
  return { json, headers: res.headers };
}

/** Runs a saved endpoint with POST (long sandbox SQL never goes into a URL). */
export function runEndpoint(name, values) {
  return api(`/api/endpoints/query/${encodeURIComponent(name)}`, { method: 'POST', body: values });
}
