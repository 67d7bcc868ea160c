// Issue 18: a checkpoint's head part writes the open rows' stored bytes as they are instead of decoding
// and re-encoding every row (tens of ms on the event loop). The chunks must be what the per-row
// re-encoding gave: rows written from strings (ASCII, other UTF-8, with and without extra columns, and
// rows copied in one piece) are valid UTF-8, so both give the same bytes, and the head decodes back.

import { describe, expect, it } from 'vitest';
import { OpenSegment } from '../../src/store/open-segment.ts';
import { decodeHead, encodeHead, type HeadState } from '../../src/store/source-image.ts';
import type { SchemaImage } from '../../src/store/schema-image.ts';

const head: HeadState = {
  hotKeys: ['project'], wm: -Infinity, seq: 6, evictedRows: 0, droppedRows: 0, hotEpoch: 0, projectNames: ['default'],
  hotValues: [['default']], schema: { fields: [] } as unknown as SchemaImage, codecs: [], current: null, codecHasDict: false,
};

/** The open rows as the per-row re-encoding wrote them: lengths and bytes. */
function reference(open: OpenSegment): { jsonLen: number[]; extraLen: number[]; bytes: Buffer } {
  const parts: Buffer[] = [], jsonLen: number[] = [], extraLen: number[] = [];
  for (let r = 0; r < open.n; r++) {
    const j = Buffer.from(open.json(r), 'utf8');
    jsonLen.push(j.length);
    parts.push(j);
    const x = open.extra(r);
    if (x === null) extraLen.push(0xffffffff);
    else { const xb = Buffer.from(x, 'utf8'); extraLen.push(xb.length); parts.push(xb); }
  }
  return { jsonLen, extraLen, bytes: Buffer.concat(parts) };
}

describe('head part of the open rows', () => {
  it('holds the bytes the per-row re-encoding wrote, and decodes back to the same rows', () => {
    const open = new OpenSegment(1, 1024);
    open.append(1, 1, 0, '{"a":1}', null, [0]);
    open.append(2, 2, 0, '{"msg":"héllo → wörld ✓"}', '{"x":"ü"}', [0]);
    open.append(3, 3, 0, '{"b":"plain"}', '{"y":2}', [0]);
    open.append(4, 4, 0, '{"emoji":"🙂"}', null, [0]);
    // Two rows copied in one piece, as the ingest addon's output is.
    const src = Buffer.from('{"c":3}{"d":"ß"}{"e":4}', 'utf8');
    const at = open.takeRows(src, 0, src.length);
    open.pushRow(5, 5, 0, at, at + 7, [0], 0);
    open.pushRow(6, 6, 0, at + 7 + Buffer.byteLength('{"d":"ß"}'), at + src.length, [0], 0);
    const chunks = encodeHead(head, open);
    const ref = reference(open);
    const tail = chunks.length - open.hot.length;
    expect([...new Uint32Array(chunks[tail - 3]!.buffer.slice(chunks[tail - 3]!.byteOffset + 1, chunks[tail - 3]!.byteOffset + chunks[tail - 3]!.length))]).toEqual(ref.jsonLen);
    expect([...new Uint32Array(chunks[tail - 2]!.buffer.slice(chunks[tail - 2]!.byteOffset + 1, chunks[tail - 2]!.byteOffset + chunks[tail - 2]!.length))]).toEqual(ref.extraLen);
    expect(chunks[tail - 1]!.equals(ref.bytes)).toBe(true);
    const back = new OpenSegment(1, 1024);
    decodeHead(chunks).refill(back);
    expect(back.n).toBe(open.n);
    for (let r = 0; r < open.n; r++) {
      expect(back.json(r)).toBe(open.json(r));
      expect(back.extra(r)).toBe(open.extra(r));
    }
  });
});
