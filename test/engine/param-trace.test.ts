// Parameter tracing: a constant folded from a parameter is recomputed for other values exactly as binding
// with those values folds it, and the classes decisions compare keep apart values that plan differently.

import { describe, expect, it } from 'vitest';
import { pinClass, recordDecisions, Revaluer, truthClass, kindClass } from '../../src/plan/param-trace.ts';
import { Binder } from '../../src/plan/binder.ts';
import { parseSavedQuery } from '../../src/endpoints/prepare.ts';
import { catalogFromStore } from '../../src/endpoints/store-catalog.ts';
import type { BExpr, Plan } from '../../src/plan/bound.ts';
import { fixtureStore, FIXTURE_NOW } from '../helpers/fixture-store.ts';

describe('decision classes', () => {
  it('pins tell apart values JSON would merge', () => {
    const distinct = [[5], ['5'], ['n:5'], [NaN], [null], [Infinity], [-0], [0]];
    expect(new Set(distinct.map((v) => pinClass(v))).size).toBe(distinct.length);
    expect(pinClass(null)).toBe('!');
  });

  it('truth and kind classes', () => {
    expect([[true], [false], [null], ['x']].map((v) => truthClass(v))).toEqual(['T', 'F', 'N', 'N']);
    expect([[1], ['1'], [null]].map((v) => kindClass(v))).toEqual(['number', 'string', 'null']);
  });
});

describe('a traced constant under other values', () => {
  const catalog = catalogFromStore(fixtureStore());
  const query = parseSavedQuery("select concat(upper(@a), '-', cast(length(@a) as string)) as x, case when @b = 'on' then 1 else 2 end as y");
  const bind = (values: Map<string, string | null>, trace: boolean): Plan =>
    new Binder({ catalog, params: values, declaredParams: null, nowUs: FIXTURE_NOW, traceParams: trace }).bindTop(query);
  const exprs = (p: Plan): BExpr[] => (p.k === 'project' ? p.exprs : []);

  it('recomputes to what a bind with those values folds, and records the CASE decision', () => {
    const { result, decisions } = recordDecisions(() => bind(new Map([['a', 'abc'], ['b', 'on']]), true));
    const [x, y] = exprs(result);
    expect(x).toMatchObject({ k: 'const', value: 'ABC-3' });
    expect(y).toMatchObject({ k: 'const', value: 1 });
    const other = new Map([['a', 'hello'], ['b', 'off']]);
    const r = new Revaluer(other);
    expect(r.value(x!)).toBe('HELLO-5');
    // The CASE was decided on @b = 'on': 'off' decides it the other way, so that plan does not hold.
    expect(decisions.every((d) => r.holds(d))).toBe(false);
    expect(decisions.every((d) => new Revaluer(new Map([['a', 'z'], ['b', 'on']])).holds(d))).toBe(true);
    expect(exprs(bind(other, false))[0]).toMatchObject({ k: 'const', value: 'HELLO-5' });
  });
});
