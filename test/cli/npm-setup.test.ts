// The project's npm setup prints no warning of its own making (issue 19.6), and the native addon builds
// with no npm `nodedir` setting at all: build-if-stale.mjs finds the headers beside the running node.

import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readdirSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { projectPath } from '../../src/core/project-root.ts';

const temps: string[] = [];
afterAll(() => {
  for (const t of temps) rmSync(t, { recursive: true, force: true });
});

/** The environment without any npm setting, as a shell outside npm has it, with an empty home. */
function bareEnv(home: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (!/^npm_/i.test(k)) env[k] = v;
  return { ...env, HOME: home, XDG_CACHE_HOME: join(home, '.cache') };
}

describe('npm setup', () => {
  it("the project's .npmrc holds only settings npm knows", () => {
    const home = mkdtempSync(join(tmpdir(), 'ringql-npmhome-'));
    temps.push(home);
    const r = spawnSync('npm', ['pkg', 'get', 'name'], { cwd: projectPath('.'), env: bareEnv(home), encoding: 'utf8' });
    expect(r.status).toBe(0);
    expect(r.stdout.trim()).toBe('"ringql"');
    expect(r.stderr).not.toMatch(/Unknown (project|user|global|env|cli) config/);
  });

  it('the native addon builds with no nodedir setting anywhere and no header download', () => {
    const dir = mkdtempSync(join(tmpdir(), 'ringql-native-'));
    temps.push(dir);
    const native = join(dir, 'src', 'native');
    for (const f of readdirSync(projectPath('src/native'))) {
      if (/\.(c|h|gyp|mjs)$/.test(f)) cpSync(projectPath(join('src/native', f)), join(native, f));
    }
    symlinkSync(projectPath('node_modules'), join(dir, 'node_modules'));
    const home = join(dir, 'home');
    const r = spawnSync(process.execPath, [join(native, 'build-if-stale.mjs')], { env: bareEnv(home), encoding: 'utf8' });
    expect(r.stderr).not.toMatch(/failed to build/);
    expect(r.status).toBe(0);
    expect(existsSync(join(native, 'build', 'Release', 'ringql_ingest.node'))).toBe(true);
    // node-gyp used the headers beside node, not a downloaded copy in its cache.
    expect(existsSync(join(home, '.cache', 'node-gyp'))).toBe(false);
  }, 120_000);
});
