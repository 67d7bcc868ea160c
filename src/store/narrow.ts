// The narrowest unsigned typed array for a column of small non-negative integers (row shapes, block
// numbers, row offsets inside a block) in sealed segments.

export type UintArray = Uint8Array | Uint16Array | Uint32Array;

/** An empty array of n elements able to hold every value up to max (max < 2^32). */
export function uintArrayFor(n: number, max: number): UintArray {
  if (max < 256) return new Uint8Array(n);
  if (max < 65536) return new Uint16Array(n);
  return new Uint32Array(n);
}

/** The values of col in the narrowest array that holds them all (col itself when it already is). */
export function narrowed(col: UintArray): UintArray {
  let max = 0;
  for (let i = 0; i < col.length; i++) if (col[i]! > max) max = col[i]!;
  const out = uintArrayFor(col.length, max);
  if (out.constructor === col.constructor) return col;
  out.set(col);
  return out;
}
