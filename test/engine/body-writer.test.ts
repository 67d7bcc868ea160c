// Response bodies are the UTF-8 bytes of their pieces, whichever write path a piece takes (ASCII
// pieces are copied as Latin-1, others encoded), and a body over the limit is refused.

import { describe, expect, it } from 'vitest';
import { BodyWriter } from '../../src/exec/body-writer.ts';

const PIECES = [
  '{"result":[', '{"id":"a","event_message":"plain ascii"}', ',',
  '{"event_message":"café über"}', ',', '{"m":"日本語のログ"}', ',', '{"m":"emoji 🚀 done"}', ',',
  '{"m":"lone \ud800 surrogate"}', ',', '{"m":"\u00ff\u0080 edge of latin-1"}', ']}',
];

describe('BodyWriter', () => {
  it('writes exactly the UTF-8 bytes of the joined pieces', () => {
    const w = new BodyWriter();
    for (const p of PIECES) w.write(p);
    expect(w.finish().equals(Buffer.from(PIECES.join(''), 'utf8'))).toBe(true);
  });

  it('keeps every piece in place when ASCII and non-ASCII pieces alternate', () => {
    const w = new BodyWriter();
    const pieces: string[] = [];
    for (let i = 0; i < 200; i++) pieces.push(i % 3 === 0 ? `é${i}` : i % 3 === 1 ? `ascii-${i}` : `"日${i}"`);
    for (const p of pieces) w.write(p);
    const out = w.finish();
    expect(out.toString('utf8')).toBe(pieces.join(''));
    expect(out.length).toBe(Buffer.byteLength(pieces.join(''), 'utf8'));
  });

  it('refuses a body over its limit', () => {
    const w = new BodyWriter(10);
    w.write('12345');
    expect(() => w.write('678901')).toThrow(/larger than 10 characters/);
  });
});
