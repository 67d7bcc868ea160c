// loadConfig: the documented defaults (README configuration table, SPEC §9), and a bad value of any
// variable stops with a message naming the variable, the value and what it accepts.

import { totalmem } from 'node:os';
import { availableParallelism } from 'node:os';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/core/config.ts';

const MIB = 1024 * 1024;

describe('loadConfig', () => {
  it('gives the documented defaults for an empty environment', () => {
    const c = loadConfig({});
    expect(c.server).toMatchObject({ host: '127.0.0.1', port: 4000, demo: false, corsOrigin: '*', maxBodyBytes: 12 * MIB, maxDecompressedBytes: 48 * MIB });
    expect(c.server.stateDir).toMatch(/\.state$/);
    expect(c.tokens).toBeNull();
    expect(c.limits).toEqual({
      maxQueryLength: 100_000, maxQueryDepth: 64, maxEventsPerBatch: 10_000, maxEventDepth: 32, maxFieldBytes: MIB,
      maxConcurrentRequests: 512, maxConcurrentQueries: 2 * availableParallelism(), maxFieldsPerSource: 10_000,
    });
    expect(c.http).toEqual({ maxUrlBytes: 65_536, inflight: { ingest: 512, query: 512, other: 512 }, bodyTimeoutMs: 10_000, bodyIdleTimeoutMs: 5000 });
    expect(c.durability).toEqual({ fsync: 'interval', fsyncMs: 100, checkpointBytes: 16 * 1024 * 1024 });
    expect(c.store).toEqual({ retentionUs: 192 * 3600 * 1e6, maxRows: 10_000_000, maxBytesPerSource: null, maxMemory: Math.floor(totalmem() * 0.5), sourceLimits: new Map() });
    expect(c.cache).toEqual({});
    expect(c.budget).toEqual({ timeoutMs: 10_000, maxRows: 200_000_000, maxValueBytes: 16 * MIB });
    expect(c.uwsMaxHeadersSize).toBe('262144');
  });

  it('reads set values, blank meaning the default', () => {
    const c = loadConfig({
      HOST: ' ::1 ', PORT: '8080', RINGQL_DEMO: 'true', RINGQL_MAX_BODY_BYTES: '1000', RINGQL_MAX_CONCURRENT_REQUESTS: '7',
      RINGQL_MAX_INFLIGHT_QUERY: '3', RINGQL_BODY_TIMEOUT_MS: '2000', RINGQL_FSYNC: 'ALWAYS', RINGQL_RETENTION_HOURS: '0.5',
      RINGQL_CACHE_MAX_BYTES: '0', RINGQL_WARM_CPU_SHARE: '1', RINGQL_QUERY_TIMEOUT_MS: '', LOGFLARE_PUBLIC_ACCESS_TOKEN: 'pub',
    });
    expect(c.server).toMatchObject({ host: '::1', port: 8080, demo: true, maxBodyBytes: 1000, maxDecompressedBytes: 4000 });
    expect(c.http).toMatchObject({ inflight: { ingest: 7, query: 3, other: 7 }, bodyTimeoutMs: 2000, bodyIdleTimeoutMs: 2000 });
    expect(c.durability.fsync).toBe('always');
    expect(c.store.retentionUs).toBe(1800 * 1e6);
    expect(c.cache).toEqual({ maxBytes: 0, warmShare: 1 });
    expect(c.budget.timeoutMs).toBe(10_000);
    expect(c.tokens).toEqual([{ token: 'pub', scopes: ['ingest', 'query'] }]);
  });

  it.each([
    ['PORT', '65536', 'an integer from 0 to 65535'],
    ['RINGQL_DEMO', 'yes', '0 or 1'],
    ['RINGQL_FSYNC', 'never', 'one of always, interval'],
    ['RINGQL_FSYNC_MS', '0', 'an integer from 1 to 60000'],
    ['RINGQL_RETENTION_HOURS', '-1', 'a positive number'],
    ['RINGQL_MAX_BYTES_PER_SOURCE', '1.5', 'a positive integer'],
    ['RINGQL_QUERY_TIMEOUT_MS', '0', 'a positive integer'],
    ['RINGQL_QUERY_MAX_ROWS', 'many', 'a positive integer'],
    ['RINGQL_MAX_VALUE_BYTES', '100', 'an integer from 1024 to 268435456'],
    ['RINGQL_CACHE_MAX_BYTES', '-1', 'an integer from 0'],
    ['RINGQL_WARM_KEYS_PER_ENDPOINT', '100001', 'an integer from 0 to 100000'],
    ['RINGQL_WARM_CPU_SHARE', '2', 'a number above 0 and at most 1'],
    ['RINGQL_MAX_URL_BYTES', '200000', 'an integer from 256 to 131072'],
    ['RINGQL_BODY_IDLE_TIMEOUT_MS', '50', 'an integer from 100 to 3600000'],
    ['RINGQL_MAX_FIELDS_PER_SOURCE', '15', 'an integer from 16 to 1000000'],
  ])('refuses %s=%s naming it, the value and what it accepts', (name, value, accepts) => {
    let err: unknown;
    try {
      loadConfig({ [name]: value });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ConfigError);
    expect((err as Error).message).toContain(`${name}="${value}" is not valid: expected ${accepts}`);
  });

  it('refuses a multi-line CORS origin and a bad token list without echoing a token', () => {
    expect(() => loadConfig({ RINGQL_CORS_ORIGIN: 'a\nb' })).toThrow(/RINGQL_CORS_ORIGIN=.* expected one line/);
    expect(() => loadConfig({ RINGQL_ACCESS_TOKENS: 'secret:admin' })).toThrow(/entry 1 has an invalid scope "admin"/);
    expect(() => loadConfig({ RINGQL_ACCESS_TOKENS: 'secret:admin' })).not.toThrow(/secret/);
  });
});
