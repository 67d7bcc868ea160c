// The LQL lexer modes and the CST grammar (grammar/lql-*): which token each piece of text becomes,
// and that the parser builds one `term` node per term without embedded actions.

import { describe, expect, it } from 'vitest';
import type { CstNode } from 'chevrotain';
import { lqlLexer } from '../../grammar/lql-tokens.ts';
import { lqlParser } from '../../grammar/lql-parser.ts';

function tokens(text: string): string[] {
  const r = lqlLexer().tokenize(text);
  expect(r.errors).toEqual([]);
  return r.tokens.map((t) => `${t.tokenType.name}:${t.image}`);
}

describe('lexer modes', () => {
  it('term mode', () => {
    expect(tokens('error -"a \\" b" ~"x" ~y')).toEqual(['Word:error', 'Minus:-', 'Quoted:"a \\" b"', 'RegexQuoted:~"x"', 'RegexBare:~y']);
    expect(tokens('f:x s:a.b c:count(*)')).toEqual(['SourceKey:f:', 'Name:x', 'SelectKey:s:', 'Name:a.b', 'ChartKey:c:', 'Count:count', 'LParen:(', 'Star:*', 'RParen:)']);
  });
  it('a path before an operator is a field key; t and timestamp are the time key', () => {
    expect(tokens('m.a.b:1 t:>2024-01-01 timestamp:<=2024-01-01T00:00:00Z tx:1 timestamp.x:1')).toEqual([
      'FieldKey:m.a.b', 'OpEq::', 'NumberLit:1',
      'TimeKey:t', 'OpGt::>', 'IsoTimestamp:2024-01-01',
      'TimeKey:timestamp', 'OpLte::<=', 'IsoTimestamp:2024-01-01T00:00:00Z',
      'FieldKey:tx', 'OpEq::', 'NumberLit:1',
      'FieldKey:timestamp.x', 'OpEq::', 'NumberLit:1',
    ]);
  });
  it('value mode types values; a longer bare word wins over a typed prefix', () => {
    expect(tokens('a:NULL a:true a:False a:-1.5e3 a:1..2 a:10.0.0.1 a:/x/y-z a:nullx a:2024-01-01x a:last@2days a:"q"')).toEqual([
      'FieldKey:a', 'OpEq::', 'NullLit:NULL',
      'FieldKey:a', 'OpEq::', 'TrueLit:true',
      'FieldKey:a', 'OpEq::', 'FalseLit:False',
      'FieldKey:a', 'OpEq::', 'NumberLit:-1.5e3',
      'FieldKey:a', 'OpEq::', 'NumberLit:1', 'DotDot:..', 'NumberLit:2',
      'FieldKey:a', 'OpEq::', 'Value:10.0.0.1',
      'FieldKey:a', 'OpEq::', 'Value:/x/y-z',
      'FieldKey:a', 'OpEq::', 'Value:nullx',
      'FieldKey:a', 'OpEq::', 'Value:2024-01-01x',
      'FieldKey:a', 'OpEq::', 'Relative:last@2days',
      'FieldKey:a', 'OpEq::', 'Quoted:"q"',
    ]);
  });
  it('every operator', () => {
    expect(tokens('a:>1 a:>=1 a:<1 a:<=1 a:~1 a:1').filter((t) => t.startsWith('Op'))).toEqual(['OpGt::>', 'OpGte::>=', 'OpLt::<', 'OpLte::<=', 'OpRegex::~', 'OpEq::']);
  });
  it('chart mode', () => {
    expect(tokens('c:group_by(t::hour)')).toEqual(['ChartKey:c:', 'GroupBy:group_by', 'LParen:(', 'TimeRef:t', 'DoubleColon:::', 'Period:hour', 'RParen:)']);
  });
  it('a word with a colon after a non-identifier stays free text', () => {
    expect(tokens('12:30 a-b:c')).toEqual(['Word:12:30', 'Word:a-b:c']);
  });
});

describe('parser', () => {
  it('one term node per term, with the matching sub-rule', () => {
    const parser = lqlParser();
    parser.input = lqlLexer().tokenize('a -~b m.x:1..2 t:last@1day f:x s:y c:count(*)').tokens;
    const cst = parser.query();
    expect(parser.errors).toEqual([]);
    const terms = (cst.children['term'] ?? []) as CstNode[];
    expect(terms.map((t) => Object.keys(t.children).sort().join('+'))).toEqual([
      'textTerm', 'Minus+regexTerm', 'fieldTerm', 'timeTerm', 'sourceTerm', 'selectTerm', 'chartTerm',
    ]);
  });
});
