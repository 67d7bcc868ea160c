// Bundles the CLI (src/cli/main.ts and every module it reaches, packages left outside) into one file beside
// the compiled main.js with esbuild: ~100 ms less start than loading ~270 dist/ modules one by one.
// Each module's import.meta.url is its compiled file's URL, so paths made from it are those of dist/.

import { readFile, rename, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join, relative } from 'node:path';

/** Where the bundle goes (the bin runs it when present in a fresh dist/). */
export const bundlePath = (root) => join(root, 'dist', 'src', 'cli', 'main.bundle.js');

/** An esbuild plugin: `import.meta.url` in a bundled source reads as the URL of its dist/ counterpart. */
function distMetaUrl(root, out) {
  return {
    name: 'dist-import-meta-url',
    setup(build) {
      build.onLoad({ filter: /\.ts$/ }, async (args) => {
        let text = await readFile(args.path, 'utf8');
        if (text.includes('import.meta.url')) {
          const compiled = relative(dirname(out), join(root, 'dist', relative(root, args.path)).replace(/\.ts$/, '.js'));
          const url = `new URL(${JSON.stringify(compiled.startsWith('.') ? compiled : `./${compiled}`)}, import.meta.url).href`;
          text = text.replaceAll('import.meta.url', url);
        }
        return { contents: text, loader: 'ts' };
      });
    },
  };
}

/**
 * Writes the bundle; without esbuild (a declared dependency, so only a broken install lacks it) removes any old one and says so: the bin then
 * loads dist/src/cli/main.js as it did. Resolves to whether the bundle was written.
 */
export async function bundleCli(root) {
  const out = bundlePath(root);
  await rm(out, { force: true });
  let esbuild;
  try {
    esbuild = createRequire(join(root, 'package.json'))('esbuild');
  } catch {
    process.stderr.write('build: esbuild is not installed; the CLI runs unbundled\n');
    return false;
  }
  const r = await esbuild.build({
    entryPoints: [join(root, 'src', 'cli', 'main.ts')], outfile: out, bundle: true, platform: 'node', format: 'esm',
    target: 'node20', packages: 'external', plugins: [distMetaUrl(root, out)], logLevel: 'warning', write: false,
  });
  // Whole or not at all: a bin starting meanwhile reads the old dist/ files, never half a bundle.
  await writeFile(`${out}.tmp`, r.outputFiles[0].contents);
  await rename(`${out}.tmp`, out);
  return true;
}
