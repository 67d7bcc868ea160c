// Endpoints defined elsewhere (cluster mode's endpoint bucket) applied to a node's service: installed or
// replaced without touching the state directory, a rename releases the old name, the cached results of a
// changed endpoint are dropped, built-ins never change, and a removal stops serving it.

import { describe, expect, it } from 'vitest';
import { applyInput } from '../../src/endpoints/definition.ts';
import { RingqlError } from '../../src/core/errors.ts';
import { fixtureService } from '../helpers/fixture-store.ts';

const ID = '0b6f5a39-5a0e-4a43-9e0a-1c2d3e4f5a6b';
const LOGS_ALL = '7b0f3c2e-4d1a-4c55-9a0e-2f6d8b1e9c01';
const def = (name: string, query: string) => applyInput(null, { name, query }, () => ID);
const run = (svc: Awaited<ReturnType<typeof fixtureService>>['service'], endpoint: string) =>
  svc.run({ endpoint, params: new Map(), redactHeader: false });

describe('EngineService.applyEndpoint / removeEndpoint', () => {
  it('installs, replaces (dropping cached results), renames and removes', async () => {
    const { service } = await fixtureService();
    expect(service.applyEndpoint(def('counts', 'select count(*) as n from `edge.logs.prod`'))).toBeNull();
    const first = await run(service, 'counts');
    expect((await run(service, 'counts')).cache).toBe('HIT');
    expect(service.applyEndpoint(def('counts', 'select count(*) + 1 as n from `edge.logs.prod`'))).toBeNull();
    const second = await run(service, ID);
    expect(second.cache).toBe('MISS');
    const n = (r: { body: Buffer }) => (JSON.parse(r.body.toString()) as { result: { n: number }[] }).result[0]!.n;
    expect(n(second)).toBe(n(first) + 1);
    // A rename: the new name answers, the old one is free.
    service.applyEndpoint(def('counts2', 'select 1 as n'));
    expect(service.getEndpoint('counts2').id).toBe(ID);
    expect(() => service.getEndpoint('counts')).toThrow(RingqlError);
    expect(service.listEndpoints().filter((e) => e.id === ID)).toHaveLength(1);
    service.removeEndpoint(ID);
    expect(() => service.getEndpoint(ID)).toThrow(RingqlError);
  });

  it('never changes a built-in, by its id or by its name', async () => {
    const { service } = await fixtureService();
    const before = service.getEndpoint('logs.all');
    expect(service.applyEndpoint(applyInput(null, { name: 'other', query: 'select 1 as n' }, () => LOGS_ALL))).toMatch(/built-in/);
    expect(service.applyEndpoint(def('logs.all', 'select 1 as n'))).toMatch(/built-in/);
    service.removeEndpoint(LOGS_ALL);
    expect(service.getEndpoint('logs.all')).toEqual(before);
  });
});
