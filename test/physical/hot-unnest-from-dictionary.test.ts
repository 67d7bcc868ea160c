// HotUnnestFromDictionary and DictionaryPredicateFilter: an unnest chain read only through hot leaves fuses
// into one operator; a predicate on one leaf is memoised per dictionary value.

import { describe, expect, it } from 'vitest';
import { hotUnnestFromDictionary } from '../../src/exec/physical/rules/hot-unnest-from-dictionary.ts';
import { dictionaryMemoText, dictionaryPredicateFilter } from '../../src/exec/physical/rules/dictionary-predicate-filter.ts';
import { columnUses } from '../../src/exec/column-uses.ts';
import { EDGE_CHAIN, find, logical, physicalText } from './helpers.ts';

describe('HotUnnestFromDictionary', () => {
  it('fires when the last element is read through hot leaves only', () => {
    const p = logical(`select r.path ${EDGE_CHAIN}`);
    const hot = hotUnnestFromDictionary(find(p, 'unnest'), columnUses(p))!;
    expect(hot.keys).toEqual(['metadata.request.path']);
    expect(hot.fields).toEqual(['request']);
  });
  it('does not fire when the element is read whole, or an inner element is read elsewhere', () => {
    const whole = logical(`select to_json_string(r) as j ${EDGE_CHAIN}`);
    expect(hotUnnestFromDictionary(find(whole, 'unnest'), columnUses(whole))).toBeNull();
    const inner = logical(`select r.path, m.host ${EDGE_CHAIN}`);
    expect(hotUnnestFromDictionary(find(inner, 'unnest'), columnUses(inner))).toBeNull();
  });
});

describe('DictionaryPredicateFilter', () => {
  it('memoises a predicate on one leaf, not one on two leaves', () => {
    const one = logical(`select r.path ${EDGE_CHAIN} where regexp_contains(r.url, 'alpha')`);
    const top = find(one, 'unnest');
    const f = dictionaryPredicateFilter(find(one, 'filter').pred, top, hotUnnestFromDictionary(top, columnUses(one))!);
    expect(f.memoLeaf).not.toBeNull();
    // The plan holds no memo key (so one plan serves every pattern); a run makes it from its predicate,
    // naming the leaf, not the query's column id, so two queries share the memo.
    expect(Object.keys(f).sort()).toEqual(['memoLeaf', 'pred']);
    expect(dictionaryMemoText(f.pred)).toMatch(/\$leaf.*alpha/);
    const two = logical(`select r.path ${EDGE_CHAIN} where r.url = r.path`);
    const top2 = find(two, 'unnest');
    expect(dictionaryPredicateFilter(find(two, 'filter').pred, top2, hotUnnestFromDictionary(top2, columnUses(two))!).memoLeaf).toBeNull();
  });
  it('names both rules in the physical plan', () => {
    expect(physicalText(`select r.path ${EDGE_CHAIN} where regexp_contains(r.url, 'alpha')`)).toMatch(/HotUnnest left m > left r keys=\[metadata\.request\.path, metadata\.request\.url\] filter=REGEXP_CONTAINS\(r\.url, "alpha"\) memo=url .*\[HotUnnestFromDictionary, DictionaryPredicateFilter\]/);
  });
});
