// `ringql query --load` over files larger than one body (BODY_LINES lines): every event is stored once
// whatever the cut, blank and CRLF lines included, and a bad line is named by its line number in the file.

import { afterAll, describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { BODY_LINES } from '../../src/cli/ndjson-load.ts';

const BIN = fileURLToPath(new URL('../../src/cli/ringql.js', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'ringql-load-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const T0 = Date.UTC(2025, 0, 15, 11) * 1000;
const event = (i: number): string => JSON.stringify({ id: `e${i}`, event_message: `line ${i}`, timestamp: T0 + i, metadata: { n: i } });

/** `events` events, a blank line after every 997th and CRLF endings on every 3rd; returns the file and its lines. */
function file(name: string, events: number, patch: (lines: string[]) => void = () => {}): { path: string; lines: string[] } {
  const lines: string[] = [];
  for (let i = 0; i < events; i++) {
    lines.push(i % 3 === 0 ? `${event(i)}\r` : event(i));
    if (i % 997 === 996) lines.push('');
  }
  patch(lines);
  const path = join(dir, name);
  writeFileSync(path, lines.join('\n') + '\n');
  return { path, lines };
}

function query(path: string, sql: string) {
  const r = spawnSync(process.execPath, [BIN, 'query', '--load', `edge.logs.prod=${path}`, '--sql', sql, '--now', '2025-01-15T12:00:00Z'], { encoding: 'utf8' });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

describe('ringql query --load', { timeout: 60_000 }, () => {
  const events = 2 * BODY_LINES + 1234;

  it('stores every event of a file cut into several bodies once', () => {
    const { path } = file('ok.ndjson', events);
    const r = query(path, 'select count(*) as n, count(distinct id) as ids, sum(cast(substr(event_message, 6) as int64)) as total from `edge.logs.prod`');
    expect(r.code).toBe(0);
    expect(JSON.parse(r.out)).toEqual({ result: [{ n: events, ids: events, total: (events * (events - 1)) / 2 }] });
    expect(r.err).toContain(`loaded ${events} events`);
  });

  it('names the line of a line that is not JSON, past the first body', () => {
    let bad = 0;
    const { path } = file('bad-json.ndjson', events, (lines) => {
      bad = BODY_LINES + 321;
      lines[bad - 1] = '{"event_message": "cut short';
    });
    const r = query(path, 'select count(*) as n from `edge.logs.prod`');
    expect(r.code).toBe(1);
    expect(r.err).toMatch(new RegExp(`bad-json\\.ndjson:${bad}: not JSON`));
  });

  it('names the line of an invalid event in the last body', () => {
    let bad = 0;
    const { path } = file('bad-event.ndjson', events, (lines) => {
      bad = lines.length - 5;
      lines[bad - 1] = JSON.stringify({ event_message: 'x', timestamp: 'not a time' });
    });
    const r = query(path, 'select count(*) as n from `edge.logs.prod`');
    expect(r.code).toBe(1);
    expect(r.err).toMatch(new RegExp(`bad-event\\.ndjson:${bad}: invalid event`));
  });

  it('says when the file cannot be read', () => {
    const r = query(dir, 'select 1 as x');
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/Cannot read .*ringql-load-/);
  });
});
