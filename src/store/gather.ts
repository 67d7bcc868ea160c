// Copies a row column's values at a batch's row indices into the batch, one loop per column kind: sealed
// columns are narrowed to Uint8/16/32 (and the open segment's are JS arrays), and a single loop over mixed
// kinds turns its element reads polymorphic (measured ~2x slower in usage.api-counts); these stay monomorphic.

import type { IdColumn } from './row-data.ts';

/** out[i] = col[idx[i]] for i in [from, to). */
export function gather(col: IdColumn, idx: Uint32Array, from: number, to: number, out: Uint32Array): void {
  if (col instanceof Uint32Array) gather32(col, idx, from, to, out);
  else if (col instanceof Uint16Array) gather16(col, idx, from, to, out);
  else if (col instanceof Uint8Array) gather8(col, idx, from, to, out);
  else gatherArray(col, idx, from, to, out);
}

function gather32(col: Uint32Array, idx: Uint32Array, from: number, to: number, out: Uint32Array): void {
  for (let i = from; i < to; i++) out[i] = col[idx[i]!]!;
}
function gather16(col: Uint16Array, idx: Uint32Array, from: number, to: number, out: Uint32Array): void {
  for (let i = from; i < to; i++) out[i] = col[idx[i]!]!;
}
function gather8(col: Uint8Array, idx: Uint32Array, from: number, to: number, out: Uint32Array): void {
  for (let i = from; i < to; i++) out[i] = col[idx[i]!]!;
}
function gatherArray(col: readonly number[], idx: Uint32Array, from: number, to: number, out: Uint32Array): void {
  for (let i = from; i < to; i++) out[i] = col[idx[i]!]!;
}

/** out[i] = names[pid[idx[i]]] (null when unnamed) for i in [from, to). */
export function gatherNames(pid: IdColumn, idx: Uint32Array, from: number, to: number, names: readonly (string | null)[], out: (string | null)[]): void {
  if (pid instanceof Uint32Array) names32(pid, idx, from, to, names, out);
  else if (pid instanceof Uint16Array) names16(pid, idx, from, to, names, out);
  else if (pid instanceof Uint8Array) names8(pid, idx, from, to, names, out);
  else namesArray(pid, idx, from, to, names, out);
}

function names32(pid: Uint32Array, idx: Uint32Array, from: number, to: number, names: readonly (string | null)[], out: (string | null)[]): void {
  for (let i = from; i < to; i++) out[i] = names[pid[idx[i]!]!] ?? null;
}
function names16(pid: Uint16Array, idx: Uint32Array, from: number, to: number, names: readonly (string | null)[], out: (string | null)[]): void {
  for (let i = from; i < to; i++) out[i] = names[pid[idx[i]!]!] ?? null;
}
function names8(pid: Uint8Array, idx: Uint32Array, from: number, to: number, names: readonly (string | null)[], out: (string | null)[]): void {
  for (let i = from; i < to; i++) out[i] = names[pid[idx[i]!]!] ?? null;
}
function namesArray(pid: readonly number[], idx: Uint32Array, from: number, to: number, names: readonly (string | null)[], out: (string | null)[]): void {
  for (let i = from; i < to; i++) out[i] = names[pid[idx[i]!]!] ?? null;
}
