// `m.level:debug..critical` names levels by severity (debug < info < notice < warning < error <
// critical < alert < emergency), as the reference expands it into each level between; not strings.

import { describe, expect, it } from 'vitest';
import { bin, errorOf, id, onlyWhere, str } from './helpers.ts';
import { lqlIds, lqlSql, minutesAgo } from './store-rows.ts';

const level = id('f_metadata', 'level');
const levelIn = (...names: string[]) => ({ kind: 'in', operand: level, not: false, list: names.map(str) });

const events = ['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency', 'verbose']
  .map((l, i) => ({ id: l, timestamp: minutesAgo(i + 1), event_message: 'm', metadata: { level: l } }));

describe('level ranges', () => {
  it('become IN (every level between, in severity order)', () => {
    expect(onlyWhere('m.level:debug..critical')).toEqual(levelIn('debug', 'info', 'notice', 'warning', 'error', 'critical'));
    expect(onlyWhere('metadata.level:notice..warning')).toEqual(levelIn('notice', 'warning'));
    expect(onlyWhere('m.level:error..error')).toEqual(levelIn('error'));
    // Bounds in either order name the same levels (the reference's Elixir range runs downward too).
    expect(onlyWhere('m.level:critical..debug')).toEqual(onlyWhere('m.level:debug..critical'));
    expect(lqlSql('m.level:warning..emergency')).toContain("WHERE f_metadata.level IN ('warning', 'error', 'critical', 'alert', 'emergency')");
  });
  it('rows: by severity (as strings, debug..critical would be empty: \'debug\' > \'critical\')', () => {
    expect(lqlIds('m.level:debug..critical', events)).toEqual(['debug', 'info', 'notice', 'warning', 'error', 'critical']);
    expect(lqlIds('m.level:error..emergency', events)).toEqual(['error', 'critical', 'alert', 'emergency']);
    expect(lqlIds('-m.level:debug..info', events)).toEqual(['notice', 'warning', 'error', 'critical', 'alert', 'emergency', 'verbose']);
  });
  it('other fields and non-level bounds keep BETWEEN; one level bound with a non-level is a syntax error', () => {
    expect(onlyWhere('m.severity:debug..error')).toMatchObject({ kind: 'between' });
    expect(onlyWhere('m.level:a..c')).toMatchObject({ kind: 'between', low: str('a'), high: str('c') });
    expect(onlyWhere('m.level:1..3')).toMatchObject({ kind: 'between' });
    const e = errorOf(() => onlyWhere('m.level:debug..loud'));
    expect(e.code).toBe('syntax_error');
    expect(e.details).toMatchObject({ column: 16 });
    expect(e.message).toMatch(/"loud" is not a log level/);
    expect(onlyWhere('m.level:error')).toEqual(bin('=', level, str('error')));
  });
});
