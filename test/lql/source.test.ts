// f: rules (SPEC §5): f: picks the CTE case-insensitively; with several CTEs it is required; an
// unknown or missing name is a 400 invalid_parameter listing the CTEs.

import { describe, expect, it } from 'vitest';
import { errorOf, lql, LOGS_ALL_CTES, ONE_CTE, select } from './helpers.ts';

const names = LOGS_ALL_CTES.map((c) => c.name);

describe('f:', () => {
  it('picks the named CTE, case-insensitively, keeping its spelling', () => {
    expect(select(lql('f:postgres_logs error', LOGS_ALL_CTES)).from).toEqual({ kind: 'table', name: ['postgres_logs'], alias: 't' });
    expect(select(lql('error f:Auth_Logs', LOGS_ALL_CTES)).from).toEqual({ kind: 'table', name: ['auth_logs'], alias: 't' });
  });
  it('is optional with exactly one CTE', () => {
    expect(select(lql('error', ONE_CTE)).from).toEqual({ kind: 'table', name: ['edge_logs'], alias: 't' });
    expect(select(lql('f:edge_logs error', ONE_CTE)).from).toEqual({ kind: 'table', name: ['edge_logs'], alias: 't' });
  });
  it('may be repeated with the same name', () => {
    expect(select(lql('f:edge_logs f:EDGE_LOGS', LOGS_ALL_CTES)).from).toMatchObject({ name: ['edge_logs'] });
  });
  it('missing with several CTEs → 400 listing them', () => {
    const e = errorOf(() => lql('error', LOGS_ALL_CTES));
    expect(e.code).toBe('invalid_parameter');
    expect(e.status).toBe(400);
    expect(e.details).toEqual({ param: 'lql', allowed: names });
    for (const n of names) expect(e.message).toContain(n);
    expect(e.message).toContain('f:');
  });
  it('unknown name → 400 listing the CTEs', () => {
    const e = errorOf(() => lql('f:edge.logs.prod', LOGS_ALL_CTES));
    expect(e.code).toBe('invalid_parameter');
    expect(e.details).toEqual({ param: 'lql', allowed: names });
    expect(e.message).toContain('edge.logs.prod');
    expect(e.message).toContain('pooler_logs');
    expect(errorOf(() => lql('f:nope', ONE_CTE)).details).toEqual({ param: 'lql', allowed: ['edge_logs'] });
  });
  it('two different names → 400', () => {
    const e = errorOf(() => lql('f:edge_logs f:auth_logs', LOGS_ALL_CTES));
    expect(e.code).toBe('invalid_parameter');
    expect(e.details).toEqual({ param: 'lql', allowed: names });
  });
  it('no CTE at all → 400', () => {
    expect(errorOf(() => lql('error', [])).details).toEqual({ param: 'lql', allowed: [] });
  });
  it('syntax errors are reported before source errors', () => {
    expect(errorOf(() => lql('error "x', LOGS_ALL_CTES)).code).toBe('syntax_error');
  });
});
