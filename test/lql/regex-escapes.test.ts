// Quoted regex operands are unescaped as the reference unescapes quoted strings (\" → ", \\ → \),
// so RE2 sees `\d` for both `~"\d"` and `~"\\d"`; rows prove what RE2 was given.

import { describe, expect, it } from 'vitest';
import { lqlIds, lqlSql, minutesAgo } from './store-rows.ts';

const events = [
  { id: 'digits', timestamp: minutesAgo(1), event_message: 'took 42ms', metadata: { file: 'a.json' } },
  { id: 'backslash', timestamp: minutesAgo(2), event_message: 'path C:\\dir', metadata: { file: 'ajson' } },
  { id: 'quote', timestamp: minutesAgo(3), event_message: 'said "hi"', metadata: { file: 'b.txt' } },
];

describe('quoted regex escapes', () => {
  it('`\\d` and `\\\\d` both reach RE2 as \\d (a digit)', () => {
    expect(lqlIds('~"\\d+ms"', events)).toEqual(['digits']);
    expect(lqlIds('~"\\\\d+ms"', events)).toEqual(['digits']);
    // Printed as a BigQuery string literal: the one backslash RE2 gets is written doubled.
    expect(lqlSql('~"\\\\d+ms"')).toContain("REGEXP_CONTAINS(t.event_message, '\\\\d+ms')");
  });
  it('four backslashes are one literal backslash; \\" is a quote', () => {
    expect(lqlIds('~"C:\\\\\\\\dir"', events)).toEqual(['backslash']);
    expect(lqlIds('~"\\"hi\\""', events)).toEqual(['quote']);
  });
  it('a field regex reads its quoted operand the same way', () => {
    expect(lqlIds('m.file:~"\\\\.json$"', events)).toEqual(['digits']);
  });
});
