// Typed arrays and small JSON headers as checkpoint chunks (store/source-image.ts): each array keeps its
// element type, and reading copies into a properly aligned array of that type (chunks come from files).

type Typed = Float64Array | Uint32Array | Uint16Array | Uint8Array | Int32Array;
const KINDS = ['f64', 'u32', 'u16', 'u8', 'i32'] as const;
type Kind = (typeof KINDS)[number];

function kindOf(a: Typed): Kind {
  if (a instanceof Float64Array) return 'f64';
  if (a instanceof Uint32Array) return 'u32';
  if (a instanceof Uint16Array) return 'u16';
  if (a instanceof Uint8Array) return 'u8';
  return 'i32';
}

/** One chunk: a kind byte then the array's bytes. */
export function arrayChunk(a: Typed): Buffer {
  const out = Buffer.allocUnsafe(1 + a.byteLength);
  out[0] = KINDS.indexOf(kindOf(a));
  Buffer.from(a.buffer, a.byteOffset, a.byteLength).copy(out, 1);
  return out;
}

/** The array a chunk holds (a fresh, aligned copy). */
export function readArray(chunk: Buffer): Typed {
  const kind = KINDS[chunk[0]!];
  const body = chunk.subarray(1);
  const copy = (bytesPer: number): ArrayBuffer => {
    if (body.length % bytesPer !== 0) throw new Error(`checkpoint image: an array chunk of ${body.length} bytes is not a whole number of elements`);
    const ab = new ArrayBuffer(body.length);
    new Uint8Array(ab).set(body);
    return ab;
  };
  switch (kind) {
    case 'f64': return new Float64Array(copy(8));
    case 'u32': return new Uint32Array(copy(4));
    case 'u16': return new Uint16Array(copy(2));
    case 'u8': return new Uint8Array(copy(1));
    case 'i32': return new Int32Array(copy(4));
    default: throw new Error(`checkpoint image: unknown array kind ${chunk[0]}`);
  }
}

/** An unsigned array (narrow column) from a chunk; throws when the chunk holds floats. */
export function readUint(chunk: Buffer): Uint8Array | Uint16Array | Uint32Array {
  const a = readArray(chunk);
  if (a instanceof Float64Array || a instanceof Int32Array) throw new Error('checkpoint image: expected an unsigned column');
  return a;
}

export function jsonChunk(v: unknown): Buffer {
  return Buffer.from(JSON.stringify(v), 'utf8');
}

/** A cursor over a part's chunks, failing clearly when one is missing. */
export class ChunkReader {
  private i = 0;
  constructor(private readonly chunks: readonly Buffer[], private readonly what: string) {}
  next(): Buffer {
    const c = this.chunks[this.i++];
    if (c === undefined) throw new Error(`checkpoint image: ${this.what} ends early (chunk ${this.i})`);
    return c;
  }
  json<T>(): T {
    return JSON.parse(this.next().toString('utf8')) as T;
  }
  done(): void {
    if (this.i !== this.chunks.length) throw new Error(`checkpoint image: ${this.what} has ${this.chunks.length - this.i} chunks too many`);
  }
}
