// `ringql gen` end to end: real files in a temp dir, read back; usage errors exit 2.

import { afterAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { genCommand, parseEndTime, type GenIo } from '../../src/cli/gen-command.ts';
import { GEN_SOURCE_NAMES } from '../../src/gen/generate.ts';
import { DAY_US, toMicros } from './helpers.ts';

const dirs: string[] = [];
const tempDir = (): string => {
  const d = mkdtempSync(join(tmpdir(), 'ringql-gen-'));
  dirs.push(d);
  return d;
};
afterAll(() => { for (const d of dirs) rmSync(d, { recursive: true, force: true }); });

function capture(isTTY = false): GenIo & { stdout: string; stderr: string } {
  const io = { stdout: '', stderr: '', isTTY, out: (s: string) => { io.stdout += s; }, err: (s: string) => { io.stderr += s; } };
  return io;
}

describe('genCommand', () => {
  it('writes one NDJSON file per source that reads back', async () => {
    const out = join(tempDir(), 'nested', 'out');
    const io = capture();
    const code = await genCommand(['--out', out, '--events', '5000', '--projects', '4', '--days', '2', '--seed', '3', '--end', '2025-01-15T12:00:00Z'], io);
    expect(code).toBe(0);
    expect(readdirSync(out).sort()).toEqual(GEN_SOURCE_NAMES.map((s) => s + '.ndjson').sort());
    const end = Date.UTC(2025, 0, 15, 12) * 1000;
    let total = 0;
    for (const source of GEN_SOURCE_NAMES) {
      const path = join(out, source + '.ndjson');
      const text = readFileSync(path, 'utf8');
      expect(text.endsWith('\n')).toBe(true);
      const lines = text.slice(0, -1).split('\n');
      for (const line of lines) {
        const e = JSON.parse(line) as Record<string, unknown>;
        const us = toMicros(e.timestamp);
        expect(us).toBeGreaterThanOrEqual(end - 2 * DAY_US);
        expect(us).toBeLessThanOrEqual(end);
      }
      total += lines.length;
      expect(io.stderr).toContain(`${path}  ${lines.length} events`);
      expect(statSync(path).size).toBeGreaterThan(0);
    }
    expect(total).toBe(5000);
    expect(io.stderr).toMatch(/generating: .*\(100%\)/);
    expect(io.stderr).toMatch(/wrote 9 files, 5000 events, [\d.]+ MB in [\d.]+ s/);
    expect(io.stdout).toBe('');
  });

  it('is reproducible: same arguments, same bytes', async () => {
    const args = ['--events', '3000', '--seed', '11', '--end', '2025-01-15T12:00:00.123456Z'];
    const a = tempDir();
    const b = tempDir();
    expect(await genCommand(['--out', a, ...args], capture())).toBe(0);
    expect(await genCommand(['--out', b, ...args], capture(true))).toBe(0);
    for (const f of readdirSync(a)) expect(readFileSync(join(b, f)).equals(readFileSync(join(a, f)))).toBe(true);
  });

  it('updates one line on a TTY', async () => {
    const io = capture(true);
    expect(await genCommand(['--out', tempDir(), '--events', '2500'], io)).toBe(0);
    expect(io.stderr).toContain('\rgenerating:');
  });

  it.each([
    [[]],
    [['--events', '10']],
    [['--out']],
    [['--out', 'x', '--events', 'many']],
    [['--out', 'x', '--events', '-5']],
    [['--out', 'x', '--projects', '0']],
    [['--out', 'x', '--days', '0']],
    [['--out', 'x', '--days', 'week']],
    [['--out', 'x', '--seed', '1.5']],
    [['--out', 'x', '--end', 'yesterday']],
    [['--out', 'x', '--bogus', '1']],
    [['--out', 'x', 'extra']],
  ])('usage error %j exits 2', async (argv) => {
    const io = capture();
    expect(await genCommand(argv, io)).toBe(2);
    expect(io.stderr).toContain('usage: ringql gen');
  });

  it('prints usage for --help', async () => {
    const io = capture();
    expect(await genCommand(['--help'], io)).toBe(0);
    expect(io.stdout).toContain('usage: ringql gen');
  });

  it('parses --end forms to µs', () => {
    expect(parseEndTime('2025-01-15T12:00:00Z')).toBe(Date.UTC(2025, 0, 15, 12) * 1000);
    expect(parseEndTime('2025-01-15T12:00:00.000001Z')).toBe(Date.UTC(2025, 0, 15, 12) * 1000 + 1);
    expect(parseEndTime('2025-01-15T14:00:00+02:00')).toBe(Date.UTC(2025, 0, 15, 12) * 1000);
    expect(parseEndTime('2025-01-15')).toBe(Date.UTC(2025, 0, 15) * 1000);
    expect(parseEndTime('2025-13-45')).toBeNull();
    expect(parseEndTime('nope')).toBeNull();
  });
});
