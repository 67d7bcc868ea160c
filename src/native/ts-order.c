/* tsOrder(ts, out) for big open segments: row indices by (timestamp, index) with an LSD radix sort of the
 * integer µs offsets from the minimum, the order store/ts-order.ts's JS gives, at a few ns a row a pass
 * (a one-shot `ringql query` otherwise sorts 460k rows in cold, unoptimised JS: ~40 ms of its serial tail). */
#include "ts-order.h"
#include "malloc-tune.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define RADIX_BITS 11
#define RADIX_BUCKETS (1u << RADIX_BITS)
/* As store/big-buffer.ts's HUGE_ADVICE_MIN_BYTES: a whole 2 MiB page fits whatever the alignment. */
#define HUGE_ADVICE_MIN ((size_t)4 << 20)

int ts_order(const double *ts, size_t n, uint32_t *out) {
  if (n == 0) return 1;
  double min = ts[0], max = ts[0];
  int sorted = 1;
  for (size_t i = 0; i < n; i++) {
    double t = ts[i];
    /* NaN, infinities and fractions: JS keys those by its comparator sort. */
    if (!(t == floor(t)) || isinf(t)) return 0;
    if (t < min) min = t;
    if (t > max) max = t;
    if (i > 0 && !(t >= ts[i - 1])) sorted = 0;
  }
  if (sorted) {
    for (size_t i = 0; i < n; i++) out[i] = (uint32_t)i;
    return 1;
  }
  double span = max - min;
  if (!(span < 4503599627370496.0)) return 0; /* 2^52: every offset exact */
  /* Keys travel with their row indices (sequential reads; only the writes scatter), 11-bit digits: 2048
   * buckets keep the scatter's write streams few enough for the caches. Every digit's counts in one read. */
  int bits = 1;
  while (bits < 64 && ((uint64_t)span >> bits) != 0) bits++;
  int passes = (bits + RADIX_BITS - 1) / RADIX_BITS;
  /* The keys, their second copy and the indices' second copy in one block, in huge pages once big: ~11 MB for
   * the CLI's 460k rows, which faulted in 4 KiB at a time cost ~25 ms of its serial tail. */
  size_t block = n * (2 * sizeof(uint64_t) + sizeof(uint32_t));
  uint64_t *key = malloc(block);
  uint32_t *counts = calloc((size_t)passes * RADIX_BUCKETS, sizeof(uint32_t));
  if (!key || !counts) { free(key); free(counts); return -1; }
  if (block >= HUGE_ADVICE_MIN) advise_huge(key, block);
  uint64_t *key2 = key + n;
  uint32_t *tmp = (uint32_t *)(key2 + n);
  for (size_t i = 0; i < n; i++) {
    uint64_t k = (uint64_t)(ts[i] - min);
    key[i] = k;
    out[i] = (uint32_t)i;
    for (int p = 0; p < passes; p++) counts[(size_t)p * RADIX_BUCKETS + ((k >> (p * RADIX_BITS)) & (RADIX_BUCKETS - 1))]++;
  }
  uint64_t *ks = key, *kd = key2;
  uint32_t *src = out, *dst = tmp;
  for (int p = 0; p < passes; p++) {
    uint32_t *c = counts + (size_t)p * RADIX_BUCKETS;
    int shift = p * RADIX_BITS;
    /* A digit every row shares moves nothing. */
    if (c[(ks[0] >> shift) & (RADIX_BUCKETS - 1)] == n) continue;
    uint32_t at = 0;
    for (uint32_t b = 0; b < RADIX_BUCKETS; b++) { uint32_t k = c[b]; c[b] = at; at += k; }
    /* Stable: rows leave in the order the previous pass left them (index order at first). */
    for (size_t i = 0; i < n; i++) {
      uint64_t k = ks[i];
      uint32_t to = c[(k >> shift) & (RADIX_BUCKETS - 1)]++;
      kd[to] = k;
      dst[to] = src[i];
    }
    uint64_t *tk = ks; ks = kd; kd = tk;
    uint32_t *t = src; src = dst; dst = t;
  }
  if (src != out) memcpy(out, src, n * sizeof(uint32_t));
  free(key); free(counts);
  return 1;
}
