// JSON_VALUE / JSON_QUERY and friends against BigQuery's documented examples (STRING JSON input).

import { describe, expect, it } from 'vitest';
import { errorOf, rows } from '../dialect/run-sql.ts';

const one = (expr: string): unknown => rows(`select ${expr} as x`)[0]!['x'];

describe('JSON_VALUE / JSON_EXTRACT_SCALAR', () => {
  it('a scalar as STRING, numbers and booleans as their JSON text', () => {
    expect(one(`json_value('{"name": "Jakob", "age": "6" }', '$.age')`)).toBe('6');
    expect(one(`json_extract_scalar('{"name": "Jakob", "age": "6" }', '$.name')`)).toBe('Jakob');
    expect(one(`json_value('{"a": {"b": 42}}', '$.a.b')`)).toBe('42');
    expect(one(`json_value('{"ok": true}', '$.ok')`)).toBe('true');
    expect(one(`json_value('"hello"')`)).toBe('hello'); // default path $
  });
  it('objects, arrays, JSON null and missing paths are NULL', () => {
    expect(one(`json_value('{"fruits": ["apple", "banana"]}', '$.fruits')`)).toBeNull();
    expect(one(`json_extract_scalar('{"a": {"b": 1}}', '$.a')`)).toBeNull();
    expect(one(`json_value('{"a": null}', '$.a')`)).toBeNull();
    expect(one(`json_value('{"a": 1}', '$.b')`)).toBeNull();
    expect(one(`json_value('{"a": [1]}', '$.a[3]')`)).toBeNull();
    expect(one(`json_value(null, '$.a')`)).toBeNull();
  });
  it('quoted names reach keys with dots: [\'a.b\'] and ."a.b"', () => {
    expect(one(`json_extract_scalar('{"a.b": {"c": "world"}}', "$['a.b'].c")`)).toBe('world');
    expect(one(`json_value('{"a.b": {"c": "world"}}', '$."a.b".c')`)).toBe('world');
    expect(one(`json_value('{"a b": 1}', '$["a b"]')`)).toBe('1');
  });
  it('array indexes', () => {
    expect(one(`json_value('{"fruits": ["apple", "banana"]}', '$.fruits[1]')`)).toBe('banana');
    expect(one(`json_value('[10, 20]', '$[0]')`)).toBe('10');
  });
  it('invalid JSON text is NULL (chosen; see report)', () => {
    expect(one(`json_value('{"a": ', '$.a')`)).toBeNull();
    expect(one(`json_query('not json')`)).toBeNull();
  });
  it('a malformed path is query_error; under SAFE. it is NULL', () => {
    for (const p of ['a.b', '$.a[', '$[-1]', '$.a.*', '$..a', "$['a'"]) {
      expect(errorOf(`select json_value('{"a": 1}', '${p.replace(/'/g, "\\'")}') as x`)).toMatchObject({ code: 'query_error', message: expect.stringContaining('Invalid JSONPath') });
    }
    // A path from a row is checked per row, with the same error.
    expect(errorOf(`select json_value('{"a": 1}', p) as x from unnest(['$.a', 'oops']) p`).message).toContain('Invalid JSONPath');
    expect(rows(`select json_value('{"a": 1}', p) as x from unnest(['$.a', '$.b']) p`)).toEqual([{ x: '1' }, { x: null }]);
    expect(one(`safe.json_value('{"a": 1}', 'a')`)).toBeNull();
  });
  it('JSON text that is not a STRING is a signature error', () => {
    expect(errorOf(`select json_value(1, '$') as x`)).toMatchObject({ code: 'query_error', message: expect.stringContaining('No matching signature for function JSON_VALUE') });
  });
});

describe('JSON_QUERY / JSON_EXTRACT', () => {
  const doc = `'{"class": {"students": [{"name": "Jane"}, {"name": null}]}}'`;
  it('the JSON text of the value, compact, strings keep their quotes', () => {
    expect(one(`json_query(${doc}, '$')`)).toBe('{"class":{"students":[{"name":"Jane"},{"name":null}]}}');
    expect(one(`json_query(${doc}, '$.class.students[0]')`)).toBe('{"name":"Jane"}');
    expect(one(`json_extract(${doc}, '$.class.students[0].name')`)).toBe('"Jane"');
    expect(one(`json_extract('{"a": 1.5}', '$.a')`)).toBe('1.5');
  });
  it('JSON null is the text null; a missing path is SQL NULL', () => {
    expect(one(`json_query(${doc}, '$.class.students[1].name')`)).toBe('null');
    expect(one(`json_query(${doc}, '$.class.students[2].name')`)).toBeNull();
  });
});

describe('JSON_QUERY_ARRAY / JSON_EXTRACT_ARRAY / JSON_VALUE_ARRAY', () => {
  it('an ARRAY of JSON texts', () => {
    expect(one(`json_query_array('{"fruits":["apples","oranges","grapes"]}', '$.fruits')`)).toEqual(['"apples"', '"oranges"', '"grapes"']);
    expect(one(`json_extract_array('[1,2,3]')`)).toEqual(['1', '2', '3']);
    expect(one(`json_query_array('[[1,2,3],[4,5,6]]')`)).toEqual(['[1,2,3]', '[4,5,6]']);
    expect(one(`json_query_array('[{"a":1},"b"]')`)).toEqual(['{"a":1}', '"b"']);
  });
  it('an ARRAY of scalar strings; NULL for a non-array or non-scalar elements', () => {
    expect(one(`json_value_array('["apples","oranges","grapes"]')`)).toEqual(['apples', 'oranges', 'grapes']);
    expect(one(`json_value_array('{"a":[1,2,3]}', '$.a')`)).toEqual(['1', '2', '3']);
    expect(one(`json_value_array('[[1,2,3]]')`)).toBeNull();
    expect(one(`json_value_array('{"a":1}')`)).toBeNull();
    expect(one(`json_query_array('{"a":1}', '$.a')`)).toBeNull();
    expect(one(`json_query_array('{"a":1}', '$.b')`)).toBeNull();
  });
  it('works per row from a column, UNNEST-able', () => {
    expect(rows(`select v from unnest(json_value_array('["x","y"]')) as v order by v`)).toEqual([{ v: 'x' }, { v: 'y' }]);
  });
});
