// The `ringql` bin runs with CLI_NODE_FLAGS (its shebang), and the CLI memory bench's child runs with
// exactly those flags, so the bench row measures the process users get.

import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { CLI_NODE_FLAGS, SEMI_SPACE_MB } from '../../src/cli/node-flags.ts';

const BIN = fileURLToPath(new URL('../../src/cli/ringql.js', import.meta.url));

describe('ringql bin node flags', () => {
  it('the shebang passes CLI_NODE_FLAGS to node, the server\'s young-generation cap among them', () => {
    const first = readFileSync(BIN, 'utf8').split('\n')[0];
    expect(first).toBe(`#!/usr/bin/env -S node ${CLI_NODE_FLAGS.join(' ')}`);
    expect(CLI_NODE_FLAGS).toContain(`--max-semi-space-size=${SEMI_SPACE_MB}`);
  });

  it('the bin runs through its shebang', () => {
    const r = spawnSync(BIN, ['query', '--sql', 'select 1 + 1 as two'], { encoding: 'utf8' });
    expect(r.stderr).toBe('');
    expect(r.stdout).toBe('{"result":[{"two":2}]}\n');
  });

  it('the bench child is spawned with CLI_NODE_FLAGS', () => {
    const bench = readFileSync(fileURLToPath(new URL('../../bench/cli-stream-memory.ts', import.meta.url)), 'utf8');
    expect(bench).toContain("[...CLI_NODE_FLAGS, '--expose-gc'");
  });
});
