// Fills a new sealed segment's columns from one input's, one loop per array kind: inputs hold JS arrays
// (the open segment) or narrowed Uint8/16/32 arrays, and one loop reading mixed kinds turns polymorphic
// (as gather.ts); a seal or merge fills each column in a pass per input instead of all columns per row.

import type { TsRead } from './ts-column.ts';
import { PlainTs } from './ts-column.ts';

type Col = ArrayLike<number>;

/** out[i] = col[order[i] - from] + add for every i whose row is this input's (from <= order[i] < from + len). */
export function pickInto(out: Uint32Array | Float64Array, order: Uint32Array, n: number, from: number, len: number, col: Col, add = 0): void {
  if (col instanceof Uint32Array) pick32(out, order, n, from, len, col, add);
  else if (col instanceof Uint16Array) pick16(out, order, n, from, len, col, add);
  else if (col instanceof Uint8Array) pick8(out, order, n, from, len, col, add);
  else if (col instanceof Float64Array) pickF64(out, order, n, from, len, col, add);
  else pickArray(out, order, n, from, len, col as readonly number[], add);
}

/** out[i] = ts of the input's row order[i] - from, for this input's rows (see pickInto). */
export function pickTs(out: Float64Array, order: Uint32Array, n: number, from: number, len: number, ts: TsRead): void {
  if (ts instanceof PlainTs) pickInto(out, order, n, from, len, ts.v as Col);
  else pickTsAt(out, order, n, from, len, ts);
}

function pickTsAt(out: Float64Array, order: Uint32Array, n: number, from: number, len: number, ts: TsRead): void {
  for (let i = 0; i < n; i++) { const r = order[i]! - from; if (r >= 0 && r < len) out[i] = ts.at(r); }
}
function pick32(out: Uint32Array | Float64Array, order: Uint32Array, n: number, from: number, len: number, col: Uint32Array, add: number): void {
  for (let i = 0; i < n; i++) { const r = order[i]! - from; if (r >= 0 && r < len) out[i] = col[r]! + add; }
}
function pick16(out: Uint32Array | Float64Array, order: Uint32Array, n: number, from: number, len: number, col: Uint16Array, add: number): void {
  for (let i = 0; i < n; i++) { const r = order[i]! - from; if (r >= 0 && r < len) out[i] = col[r]! + add; }
}
function pick8(out: Uint32Array | Float64Array, order: Uint32Array, n: number, from: number, len: number, col: Uint8Array, add: number): void {
  for (let i = 0; i < n; i++) { const r = order[i]! - from; if (r >= 0 && r < len) out[i] = col[r]! + add; }
}
function pickF64(out: Uint32Array | Float64Array, order: Uint32Array, n: number, from: number, len: number, col: Float64Array, add: number): void {
  for (let i = 0; i < n; i++) { const r = order[i]! - from; if (r >= 0 && r < len) out[i] = col[r]! + add; }
}
function pickArray(out: Uint32Array | Float64Array, order: Uint32Array, n: number, from: number, len: number, col: readonly number[], add: number): void {
  for (let i = 0; i < n; i++) { const r = order[i]! - from; if (r >= 0 && r < len) out[i] = col[r]! + add; }
}

/** out[pos[t]] = col[loc[t]] + add for every t: one input's rows of a merge, scattered to where they land. */
export function scatterInto(out: Uint32Array | Float64Array, pos: Uint32Array, loc: Uint32Array, col: Col, add = 0): void {
  if (col instanceof Uint32Array) scatter32(out, pos, loc, col, add);
  else if (col instanceof Uint16Array) scatter16(out, pos, loc, col, add);
  else if (col instanceof Uint8Array) scatter8(out, pos, loc, col, add);
  else if (col instanceof Float64Array) scatterF64(out, pos, loc, col, add);
  else scatterArray(out, pos, loc, col as readonly number[], add);
}

/** out[pos[t]] = ts of row loc[t] (see scatterInto). */
export function scatterTs(out: Float64Array, pos: Uint32Array, loc: Uint32Array, ts: TsRead): void {
  if (ts instanceof PlainTs) { scatterInto(out, pos, loc, ts.v as Col); return; }
  for (let t = 0; t < pos.length; t++) out[pos[t]!] = ts.at(loc[t]!);
}
function scatter32(out: Uint32Array | Float64Array, pos: Uint32Array, loc: Uint32Array, col: Uint32Array, add: number): void {
  for (let t = 0; t < pos.length; t++) out[pos[t]!] = col[loc[t]!]! + add;
}
function scatter16(out: Uint32Array | Float64Array, pos: Uint32Array, loc: Uint32Array, col: Uint16Array, add: number): void {
  for (let t = 0; t < pos.length; t++) out[pos[t]!] = col[loc[t]!]! + add;
}
function scatter8(out: Uint32Array | Float64Array, pos: Uint32Array, loc: Uint32Array, col: Uint8Array, add: number): void {
  for (let t = 0; t < pos.length; t++) out[pos[t]!] = col[loc[t]!]! + add;
}
function scatterF64(out: Uint32Array | Float64Array, pos: Uint32Array, loc: Uint32Array, col: Float64Array, add: number): void {
  for (let t = 0; t < pos.length; t++) out[pos[t]!] = col[loc[t]!]! + add;
}
function scatterArray(out: Uint32Array | Float64Array, pos: Uint32Array, loc: Uint32Array, col: readonly number[], add: number): void {
  for (let t = 0; t < pos.length; t++) out[pos[t]!] = col[loc[t]!]! + add;
}
