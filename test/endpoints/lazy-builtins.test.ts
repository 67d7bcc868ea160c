// The CLI's one-shot service (lazyBuiltins) prepares the built-in endpoints at their first lookup, not at
// creation: a plain `ringql query --sql` parses none of them, and a lookup answers as the eager service does.

import { describe, expect, it } from 'vitest';
import { createQueryService } from '../../src/endpoints/service.ts';
import { engineCounters } from '../../src/core/engine-counters.ts';
import { RingqlError } from '../../src/core/errors.ts';
import { fixtureStore, FIXTURE_NOW } from '../helpers/fixture-store.ts';

const service = (lazyBuiltins: boolean) => createQueryService({ store: fixtureStore(), stateDir: null, nowMicros: () => FIXTURE_NOW, cache: { sweepMs: 0 }, lazyBuiltins });

describe('lazy built-in endpoints', () => {
  it('are not parsed when the service is created', async () => {
    const before = engineCounters.parses;
    const svc = await service(true);
    expect(engineCounters.parses).toBe(before);
    expect(svc.builtinsPrepared).toBe(false);
    svc.close();
  });

  it('are prepared at the first lookup, and then the same as an eager service\'s', async () => {
    const lazy = await service(true), eager = await service(false);
    expect(eager.builtinsPrepared).toBe(true);
    const before = engineCounters.parses;
    expect(lazy.resolve('LOGS.ALL').def.name).toBe('logs.all');
    expect(engineCounters.parses).toBeGreaterThan(before);
    expect(lazy.builtinsPrepared).toBe(true);
    expect(lazy.listEndpoints().map((e) => e.name).sort()).toEqual(eager.listEndpoints().map((e) => e.name).sort());
    lazy.close();
    eager.close();
  });

  it('answer an unknown name with endpoint_not_found, as before', async () => {
    const svc = await service(true);
    expect(() => svc.resolve('nope')).toThrow(RingqlError);
    expect(() => svc.resolve('nope')).toThrow(/No endpoint with id or name "nope"/);
    svc.close();
  });
});
