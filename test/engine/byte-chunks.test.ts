// ByteChunks (issue 18, streaming memory): the bytes it hands over are exactly the UTF-8 of what was
// written, across chunk boundaries, oversized pieces and reused chunks; JSON/NDJSON value rows through it.

import { describe, expect, it } from 'vitest';
import { BodyWriter } from '../../src/exec/body-writer.ts';
import { BYTE_CHUNK, ByteChunks } from '../../src/exec/sinks/byte-chunks.ts';
import { JsonSink } from '../../src/exec/sinks/json-sink.ts';
import type { Value } from '../../src/core/values.ts';
import { NdjsonSink } from '../../src/exec/sinks/ndjson-sink.ts';

/** Pieces of ASCII, accented letters (2 bytes), CJK (3 bytes) and an emoji (a surrogate pair, 4 bytes). */
function piece(i: number): string {
  const kinds = ['plain,text', 'caf\u00e9 cr\u00e8me', '\u65e5\u672c\u8a9e', 'smile \u{1F600}', '"quoted ""x"""'];
  return `${i}:${kinds[i % kinds.length]!.repeat(1 + (i % 37))}\r\n`;
}

describe('ByteChunks', () => {
  it('gives the UTF-8 of the pieces in order, whole, across many chunks', () => {
    const bytes = new ByteChunks(new BodyWriter());
    const pieces: string[] = [];
    for (let i = 0; i < 20_000; i++) {
      pieces.push(piece(i));
      bytes.write(pieces[i]!);
    }
    const big = 'x\u00e9'.repeat(BYTE_CHUNK); // more than a chunk can hold: goes to the writer as text
    bytes.write(big);
    bytes.write('end');
    expect(bytes.finish().equals(Buffer.from(pieces.join('') + big + 'end', 'utf8'))).toBe(true);
  });

  it('taken pieces stay intact while the chunks they came from are reused', () => {
    const bytes = new ByteChunks(new BodyWriter());
    const taken: Buffer[] = [];
    const expected: string[] = [];
    let since = '';
    for (let i = 0; i < 30_000; i++) {
      const p = piece(i);
      bytes.write(p);
      since += p;
      if (i % 7_000 === 6_999) {
        taken.push(bytes.take());
        expected.push(since);
        since = '';
      }
    }
    taken.push(bytes.finish());
    expected.push(since);
    expect(taken.map((b) => b.toString('utf8'))).toEqual(expected);
  });

  it('counts the bytes of the open chunk as pending, next to what the writer holds', () => {
    const out = new BodyWriter();
    const bytes = new ByteChunks(out);
    bytes.write('caf\u00e9');
    expect(bytes.pending).toBe(5);
    expect(out.pending).toBe(0);
  });
});

describe('JSON and NDJSON rows made from values, through ByteChunks', () => {
  const cols = [{ name: 'id', timestamp: false }, { name: 'msg', timestamp: false }, { name: 'meta', timestamp: false }];
  const rows: Value[][] = Array.from({ length: 5_000 }, (_, i) => [`id-${i}`, i % 3 === 0 ? null : `caf\u00e9 \u65e5\u672c ${'x'.repeat(i % 50)}`, { n: i, nested: [i, 'a"b'] }]);
  const asObject = (r: Value[]) => ({ id: r[0], msg: r[1], meta: r[2] });

  it('the JSON body is the JSON text of {result: rows}, whole', () => {
    const sink = new JsonSink();
    sink.begin(cols);
    for (const r of rows) sink.row(r);
    expect(sink.finish().toString('utf8')).toBe(JSON.stringify({ result: rows.map(asObject) }));
  });

  it('NDJSON taken in pieces joins to one JSON line per row', () => {
    const sink = new NdjsonSink();
    sink.begin(cols);
    const pieces: Buffer[] = [];
    rows.forEach((r, i) => {
      sink.row(r);
      if (i % 1_000 === 999) pieces.push(sink.take());
    });
    pieces.push(sink.finish());
    expect(Buffer.concat(pieces).toString('utf8')).toBe(rows.map((r) => JSON.stringify(asObject(r)) + '\n').join(''));
  });
});
