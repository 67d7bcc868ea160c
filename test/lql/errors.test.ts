// Every LQL syntax error is a 400 syntax_error carrying line 1 and the 1-based column of the
// offending character; unknown columns are unknown_name at the term's column.

import { describe, expect, it } from 'vitest';
import { errorOf, expectSyntaxError, lql } from './helpers.ts';

describe('syntax errors with positions', () => {
  const cases: [string, number, RegExp?][] = [
    ['error "unterminated', 7, /unterminated quoted string/],
    ['m.request.path:"open', 16, /unterminated/],
    ['a - b', 3, /directly before/],
    ['-', 1],
    ['~', 1, /pattern/],
    ['~ x', 1],
    [':foo', 1, /unexpected ':'/],
    ['m.x:', 5, /end of input.*value/],
    ['m.x: 5', 6, /unexpected '5'/],
    ['m.x:1..', 8, /end of input/],
    ['m.x:>1..2', 7, /unexpected '\.\.'/],
    ['m.x:NULL..3', 5, /NULL cannot bound a range/],
    ['m.x:>NULL', 6, /NULL can only be matched with ':'/],
    ['m.x:"a"b', 8, /unexpected 'b'/],
    ['t:~x', 2, /unexpected ':~'.*':'/],
    ['t:>"soon"', 4, /not an ISO 8601 timestamp/],
    ['t:last@15', 3, /unexpected 'last@15'/],
    ['t:last@15fortnights', 3],
    ['t:last@1hour..2', 3, /cannot bound a range/],
    ['t:123', 3, /Unix timestamp \(10, 13 or 16 digits\)/],
    ['f:', 3, /end of input/],
    ['f:"edge"', 3, /unexpected '"': a quoted string is not allowed here/],
    ['f: edge_logs', 4, /unexpected 'edge_logs'/],
    ['s:', 3],
    ['s:m.', 4],
    ['s:m.request.path:x', 17],
    ['c:', 3],
    ['c:median(x)', 3, /unexpected 'median'.*'count'.*'group_by'/],
    ['c:count', 8, /end of input.*'\('/],
    ['c:count("x")', 9],
    ['c:count(*', 10],
    ['c:group_by(t::week)', 15, /unexpected 'week'.*'minute', 'hour' or 'day'/],
    ['c:group_by(x::minute)', 12, /unexpected 'x'/],
    ['c:group_by(t:minute)', 13],
    ['ok -f:edge_logs', 4, /f: cannot be negated/],
    ['-s:id', 1, /s: cannot be negated/],
    ['-c:count(*)', 1, /c: cannot be negated/],
    ['--x', 2],
    ['x:~', 4],
    // Doubled operators, as the reference rejects them: the second operator character is the error.
    ['m.f:>>100', 6, /doubled operator: '>'/],
    ['m.f::v', 5, /doubled operator: ':'/],
    ['m.f:<=<1', 7, /doubled operator/],
    ['m.f:~~p', 6, /doubled operator: '~'/],
    ['m.f:@>>a', 7, /doubled operator/],
    ['~~p', 1, /pattern/],
    ['x ~~"p"', 3],
    ['m.f:=v', 5, /doubled operator: '='/],
    // Control characters, anywhere (a quoted string too).
    ['error\u0001', 6, /control character U\+0001/],
    ['"a\u0000b"', 3, /control character U\+0000/],
    ['m.f:v\u007f', 6, /U\+007F/],
  ];
  for (const [text, column, message] of cases) {
    it(`${JSON.stringify(text)} → column ${column}`, () => expectSyntaxError(text, column, message));
  }
  it('the message names the column and the status is 400', () => {
    const e = errorOf(() => lql('error :x'));
    expect(e.status).toBe(400);
    expect(e.message).toMatch(/^LQL syntax error at column 7: /);
    expect(e.toBody().error).toMatchObject({ code: 'syntax_error', line: 1, column: 7 });
  });
  it('a value may still hold operator characters after its first, or be quoted', () => {
    expect(() => lql('m.url:http://x/a=b m.f:">1" m.t:12:30 m.f:a~b')).not.toThrow();
  });
  it('a control character on a later line reports that line', () => {
    expect(errorOf(() => lql('ok\n ab\u0002')).details).toEqual({ line: 2, column: 4 });
  });
  it('on a later line the line is reported and the column counts from that line', () => {
    const e = errorOf(() => lql('error\n  :x'));
    expect(e.details).toEqual({ line: 2, column: 3 });
  });
});

describe('unknown columns', () => {
  it('an unknown top-level column is unknown_name at the term, listing the columns', () => {
    const e = errorOf(() => lql('error nope.x:1'));
    expect(e.code).toBe('unknown_name');
    expect(e.details).toMatchObject({ line: 1, column: 7, name: 'nope' });
    expect(e.message).toContain('event_message');
    expect(errorOf(() => lql('s:zzz')).details).toMatchObject({ column: 1, name: 'zzz' });
  });
  it('free text needs event_message and a time chart needs timestamp', () => {
    const ctes = [{ name: 'dates', columns: ['start'] }];
    expect(errorOf(() => lql('error', ctes)).details).toMatchObject({ name: 'event_message', column: 1 });
    expect(errorOf(() => lql('t:last@1hour', ctes)).details).toMatchObject({ name: 'timestamp' });
    expect(errorOf(() => lql('c:count(*) c:group_by(t::day)', ctes)).details).toMatchObject({ name: 'timestamp', column: 12 });
    // c:count(*) alone is a per-minute chart too, so it needs timestamp as well.
    expect(errorOf(() => lql('c:count(*)', ctes)).details).toMatchObject({ name: 'timestamp', column: 1 });
  });
});
