// The largest single row slab (Buffer and 32-bit offsets allow up to 4 GiB; segments stay far below).

export const MAX_SLAB_BYTES = 1 << 30;
