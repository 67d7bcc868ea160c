// `ringql query … | head`: a reader that closes the bin's stdout early ends it quietly with exit 0, not with
// an unhandled EPIPE and a stack trace on stderr.

import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const BIN = fileURLToPath(new URL('../../src/cli/ringql.js', import.meta.url));

describe('ringql query with its stdout closed early', () => {
  it('exits 0 and says nothing on stderr', async () => {
    // 100k rows (~1.2 MB): far more than a pipe holds, so the bin is still writing when the reader goes.
    const child = spawn(process.execPath, [BIN, 'query', '--sql', 'select x from unnest(generate_array(1, 100000)) as x'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let err = '', got = 0;
    child.stderr.on('data', (d: Buffer) => { err += d.toString(); });
    child.stdout.on('data', (d: Buffer) => {
      got += d.length;
      child.stdout.destroy(); // as `head -c` does once it has its bytes
    });
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    expect(got).toBeGreaterThan(0);
    expect(err).not.toMatch(/EPIPE|Unhandled|\n\s+at /);
    expect(code).toBe(0);
  });
});
