// The bin runs the build's one-file bundle of the CLI when dist/ is fresh (bundle-cli.mjs): its answers,
// notes and exit codes are those of the TypeScript CLI, for each path a query takes (column-only load,
// full load, endpoint; the errors' are pinned by query-command.test.ts through the bin).

import { beforeAll, describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';
import { FIXTURE_DIR } from '../helpers/fixture-store.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const BUNDLE = join(ROOT, 'dist', 'src', 'cli', 'main.bundle.js');
const load = ['--load', `edge.logs.prod=${join(FIXTURE_DIR, 'edge.logs.prod.ndjson')}`, '--load', `postgres.logs=${join(FIXTURE_DIR, 'postgres.logs.ndjson')}`];
const NOW = ['--now', '2025-01-15T12:00:00Z'];
/** The CLI's TypeScript through tsx, as the bin runs it when dist/ is stale (a file: workers inherit node's flags, and -e is none for them). */
const TS_MAIN = join(mkdtempSync(join(tmpdir(), 'ringql-bundle-')), 'ts-main.mjs');
const runner = (main: string): string => `const { main } = await import(${JSON.stringify(main)});\nprocess.exitCode = await main(process.argv.slice(2));\n`;
writeFileSync(TS_MAIN, runner(join(ROOT, 'src', 'cli', 'main.ts')));
/** The bundle itself (the bin picks it only while dist/ is fresh, which another test's edit could end). */
const BUNDLE_MAIN = join(dirname(TS_MAIN), 'bundle-main.mjs');
writeFileSync(BUNDLE_MAIN, runner(BUNDLE));

function run(argv: string[]) {
  const r = spawnSync(process.execPath, argv, { encoding: 'utf8', cwd: ROOT });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

const CASES: [string, string[]][] = [
  ['column-only load', ['query', '--sql', 'select project, count(*) as n from `edge.logs.prod` group by project order by n desc, project', ...load, ...NOW]],
  ['full load', ['query', '--sql', 'select count(*) as n, min(event_message) as m from `postgres.logs`', ...load, ...NOW]],
  ['endpoint', ['query', '--endpoint', 'logs.all', '--param', 'project=alpha', '--format', 'csv', ...load, ...NOW]],
];

describe('the bundled CLI', { timeout: 60_000 }, () => {
  beforeAll(() => {
    const b = spawnSync(process.execPath, [join(ROOT, 'src', 'cli', 'build.mjs'), '--if-stale'], { encoding: 'utf8', cwd: ROOT });
    expect(b.status, b.stderr).toBe(0);
  });

  it('is written by the build', () => {
    expect(existsSync(BUNDLE)).toBe(true);
  });

  for (const [name, args] of CASES) {
    it(`answers as the TypeScript CLI does: ${name}`, () => {
      const bundled = run([BUNDLE_MAIN, ...args]);
      const ts = run(['--import', 'tsx', TS_MAIN, ...args]);
      expect(bundled).toEqual(ts);
    });
  }
});
