// The native addon built with AddressSanitizer and UndefinedBehaviorSanitizer (gcc's), and the tests that drive it —
// the byte path's differential and fuzz runs, scans, ts order, worker transfers, CRC-32 and copies — run against
// that build in a copy of the checkout: an out-of-bounds access, use after free or undefined behaviour stops them.

import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { machine, tmpdir } from 'node:os';
import { join, sep } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { projectPath } from '../../src/core/project-root.ts';

/** The test files whose code reaches the addon (the allocator's tests are left out: ASan replaces malloc). */
const FILES = [
  'test/store/byte-ingest.test.ts',
  'test/store/byte-ingest-scan.test.ts',
  'test/store/byte-ingest-large.test.ts',
  'test/store/byte-ingest-worker.test.ts',
  'test/store/scan-body.test.ts',
  'test/store/ts-order.test.ts',
  'test/store/transfer-batch.test.ts',
  'test/store/head-image-bytes.test.ts',
  'test/store/open-segment-byteless.test.ts',
  'test/store/row-pool.test.ts',
  'test/store/thread-row-pool.test.ts',
  'test/core/crc32.test.ts',
  'test/core/copy-bytes.test.ts',
  'test/fuzz/fuzz.test.ts',
];
const SANITIZE = ['-fsanitize=address,undefined', '-fno-sanitize-recover=all', '-fno-omit-frame-pointer', '-g'];

const temps: string[] = [];
afterAll(() => {
  for (const t of temps) rmSync(t, { recursive: true, force: true });
});

/** gcc's ASan runtime, which must be loaded before anything else in a node process that loads the build. */
function asanRuntime(): string {
  const p = execFileSync('gcc', ['-print-file-name=libasan.so'], { encoding: 'utf8' }).trim();
  if (!existsSync(p)) throw new Error(`gcc has no AddressSanitizer runtime (${p}): install Debian's libasan8`);
  return p;
}

/** A copy of the checkout's code and tests beside the same node_modules, its addon built with the sanitizers. */
function sanitizedCopy(): string {
  const dir = mkdtempSync(join(tmpdir(), 'ringql-asan-'));
  temps.push(dir);
  const build = projectPath('src/native/build');
  for (const d of ['src', 'test', 'bench', 'grammar', 'data']) {
    cpSync(projectPath(d), join(dir, d), { recursive: true, filter: (f) => f !== build && !f.startsWith(build + sep) });
  }
  for (const f of ['package.json', 'tsconfig.json']) cpSync(projectPath(f), join(dir, f));
  symlinkSync(projectPath('node_modules'), join(dir, 'node_modules'));
  const gyp = join(dir, 'src', 'native', 'binding.gyp');
  const text = readFileSync(gyp, 'utf8');
  const flags = SANITIZE.map((f) => JSON.stringify(f)).join(', ');
  const edited = text.replace('"cflags": [', `"ldflags": [${flags}], "cflags": [${flags}, `);
  expect(edited, 'binding.gyp has a "cflags" list to extend').not.toBe(text);
  writeFileSync(gyp, edited);
  const r = spawnSync(process.execPath, [join(dir, 'src', 'native', 'build-if-stale.mjs')], { encoding: 'utf8' });
  expect(r.status, `sanitized build failed:\n${r.stdout.slice(-2000)}\n${r.stderr.slice(-2000)}`).toBe(0);
  return dir;
}

describe('the native addon under AddressSanitizer and UBSan', () => {
  it('passes every test that drives it, with no memory error or undefined behaviour', () => {
    const runtime = asanRuntime();
    const dir = sanitizedCopy();
    const addon = readFileSync(join(dir, 'src', 'native', 'build', 'Release', 'ringql_ingest.node'));
    // The build is instrumented (else this would pass on an unchecked addon).
    expect(addon.includes('__asan_report_load8')).toBe(true);
    expect(addon.includes('__ubsan_handle')).toBe(true);
    // Under setarch -R (no address randomisation for the run's process tree): gcc 12's ASan cannot place its
    // shadow memory on kernels that randomise mmap with 32 bits, and fails at random there.
    const r = spawnSync(
      'setarch',
      [machine(), '-R', process.execPath, join(dir, 'node_modules', 'vitest', 'vitest.mjs'), 'run', '--config', 'test/vitest.config.ts', '--maxWorkers=2', ...FILES],
      {
        cwd: dir,
        encoding: 'utf8',
        maxBuffer: 64 << 20,
        env: {
          ...process.env,
          LD_PRELOAD: runtime,
          // Node's own allocations are never freed at exit: leaks are not what this looks for.
          ASAN_OPTIONS: 'detect_leaks=0:halt_on_error=1:abort_on_error=0',
          UBSAN_OPTIONS: 'print_stacktrace=1:halt_on_error=1',
          // A longer differential fuzz round than the plain suite's.
          BYTE_FUZZ_RUNS: '2000',
          NO_COLOR: '1',
        },
      },
    );
    expect(r.error?.message, 'setarch (util-linux) and node start').toBeUndefined();
    const out = `${r.stdout}\n${r.stderr}`.replace(/\x1b\[[0-9;]*m/g, '');
    const report = /ERROR: AddressSanitizer[\s\S]{0,3000}|runtime error:[\s\S]{0,3000}/.exec(out)?.[0];
    expect(report, 'a sanitizer report').toBeUndefined();
    expect(r.status, out.slice(-4000)).toBe(0);
    // Every file ran (a worker the sanitizer stopped would leave its tests unrun, not failed).
    expect(out).toMatch(new RegExp(`Test Files\\s+${FILES.length} passed \\(${FILES.length}\\)`));
  }, 300_000);
});
