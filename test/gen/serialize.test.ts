// The hand-written edge NDJSON writer must produce exactly JSON.stringify's text.

import { describe, expect, it } from 'vitest';
import { generateEvents } from '../../src/gen/generate.ts';
import { serializeEvent } from '../../src/gen/serialize.ts';
import { END_US } from './helpers.ts';

describe('serializeEvent', () => {
  it('matches JSON.stringify byte for byte, for every source and variant', () => {
    let n = 0;
    for (const { source, event } of generateEvents({ events: 20_000, projects: 12, days: 3, seed: 99, endUs: END_US })) {
      const line = serializeEvent(source, event);
      if (line !== JSON.stringify(event)) throw new Error(`${source} mismatch:\n${line}\n${JSON.stringify(event)}`);
      expect(line.includes('\n')).toBe(false);
      n++;
    }
    expect(n).toBe(20_000);
  });
});
