// RINGQL_METRICS_PUBLIC (SPEC §3 Other routes): `1` opens GET /metrics to scrapers without a token;
// unset, blank or `0` keeps it behind a token of any scope.

import type { Env } from './env-int.ts';

export function metricsPublicFromEnv(env: Env): boolean {
  const raw = (env.RINGQL_METRICS_PUBLIC ?? '').trim().toLowerCase();
  if (raw === '' || raw === '0' || raw === 'false') return false;
  if (raw === '1' || raw === 'true') return true;
  throw new Error(`RINGQL_METRICS_PUBLIC="${env.RINGQL_METRICS_PUBLIC}" is not valid: expected 0 or 1`);
}
