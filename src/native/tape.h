/* The byte-level ingest addon's shared types: a growable byte buffer, and the tape one JSON value is
 * parsed into (nodes in document order, decoded strings in an arena) so the transform can walk it. */
#ifndef RINGQL_TAPE_H
#define RINGQL_TAPE_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

typedef struct {
  uint8_t *p;
  size_t n, cap;
  int oom;
  /* p is memory lent by the caller (a JS Buffer): never realloc'd or freed here; growing moves to malloc'd memory. */
  int borrowed;
} bytes_t;

void b_grow(bytes_t *b, size_t extra);
static inline void b_reserve(bytes_t *b, size_t extra) {
  if (b->n + extra > b->cap) b_grow(b, extra);
}
/* memcpy of n bytes, inlined for short n (keys, most values): overlapping word moves, no libc call. */
static inline void copy_bytes(uint8_t *dst, const uint8_t *src, size_t n) {
  if (n >= 8 && n <= 16) {
    uint64_t a, b;
    memcpy(&a, src, 8); memcpy(&b, src + n - 8, 8);
    memcpy(dst, &a, 8); memcpy(dst + n - 8, &b, 8);
  } else if (n >= 4 && n < 8) {
    uint32_t a, b;
    memcpy(&a, src, 4); memcpy(&b, src + n - 4, 4);
    memcpy(dst, &a, 4); memcpy(dst + n - 4, &b, 4);
  } else if (n < 4) {
    for (size_t i = 0; i < n; i++) dst[i] = src[i];
  } else memcpy(dst, src, n);
}
static inline void b_put(bytes_t *b, const void *src, size_t n) {
  b_reserve(b, n);
  if (b->oom) return;
  copy_bytes(b->p + b->n, (const uint8_t *)src, n);
  b->n += n;
}
static inline void b_byte(bytes_t *b, uint8_t c) {
  if (b->n + 1 > b->cap) b_reserve(b, 1);
  if (!b->oom) b->p[b->n++] = c;
}
static inline void b_u32(bytes_t *b, uint32_t v) {
  b_reserve(b, 4);
  if (b->oom) return;
  uint8_t *o = b->p + b->n;
  o[0] = (uint8_t)v; o[1] = (uint8_t)(v >> 8); o[2] = (uint8_t)(v >> 16); o[3] = (uint8_t)(v >> 24);
  b->n += 4;
}
void b_free(bytes_t *b);

enum { T_NULL, T_FALSE, T_TRUE, T_NUM, T_STR, T_OBJ, T_ARR };

typedef struct {
  uint8_t t;
  /* Numbers: 1 when the token is an integer of magnitude at most 2^53 (exact as a double, text kept). */
  uint8_t small_int;
  /* 1 when the key / string value is its own bytes in the input (no escapes), else in the arena. */
  uint8_t kin, vin;
  /* Index of the node after this one's subtree. */
  uint32_t next;
  /* Members (objects) or elements (arrays). */
  uint32_t count;
  /* Members: the decoded key in the arena. */
  uint32_t koff, klen;
  /* Strings: decoded bytes in the arena; numbers: the token in the input. */
  uint32_t voff, vlen;
} node_t;

typedef struct {
  node_t *nodes;
  size_t n, cap;
  bytes_t arena;
  int oom;
  /* Scratch for the duplicate-key check: a fingerprint per key of each object being parsed (a stack). */
  uint64_t *keyfp;
  size_t nkeyfp, capkeyfp;
} tape_t;

static inline const uint8_t *key_of(const tape_t *t, const uint8_t *in, const node_t *n) {
  return n->kin ? in + n->koff : t->arena.p + n->koff;
}
static inline const uint8_t *str_of(const tape_t *t, const uint8_t *in, const node_t *n) {
  return n->vin ? in + n->voff : t->arena.p + n->voff;
}

#define ONES 0x0101010101010101ull
#define HIGHS 0x8080808080808080ull

/* Nonzero when one of 8 bytes may be '"', '\\' or a control character (a hit may make the bytes above
 * it look like hits too; callers then go byte by byte), or (with `high`) is >= 0x80. */
static inline uint64_t json_special8(const uint8_t *p, int high) {
  uint64_t x;
  memcpy(&x, p, 8);
  uint64_t q = x ^ (ONES * '"'), b = x ^ (ONES * '\\');
  uint64_t hit = ((x - ONES * 0x20) | (q - ONES) | (b - ONES)) & ~x & HIGHS;
  return high ? hit | (x & HIGHS) : hit;
}

#ifdef __SSE2__
#include <emmintrin.h>
#endif

/* The first index in [q, end) of a byte that ends a plain run inside a JSON string: '"', '\\', a
 * control byte (< 0x20) or a byte >= 0x80; `end` when there is none. SSE2 (baseline on x86-64) reads 16
 * bytes at a time, never past `end`; elsewhere 8 bytes at a time. */
static inline size_t plain_run_end(const uint8_t *in, size_t q, size_t end) {
#ifdef __SSE2__
  const __m128i quote = _mm_set1_epi8('"'), bslash = _mm_set1_epi8('\\'), space = _mm_set1_epi8(0x20);
  while (q + 16 <= end) {
    __m128i x = _mm_loadu_si128((const __m128i *)(in + q));
    /* Signed compare: bytes >= 0x80 are negative, so "< 0x20" also catches them. */
    __m128i hit = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(x, quote), _mm_cmpeq_epi8(x, bslash)), _mm_cmplt_epi8(x, space));
    unsigned m = (unsigned)_mm_movemask_epi8(hit);
    if (m) return q + (size_t)__builtin_ctz(m);
    q += 16;
  }
#else
  while (q + 8 <= end && !json_special8(in + q, 1)) q += 8;
#endif
  while (q < end) {
    uint8_t c = in[q];
    if (c == '"' || c == '\\' || c < 0x20 || c >= 0x80) break;
    q++;
  }
  return q;
}

/* The JSON number token at in[p..end) (RFC 8259 grammar, as JSON.parse takes it): the index just after it,
 * or -1 when in[p] does not begin a valid one. *small_int: 1 when it is an integer of magnitude at most 2^53
 * (exact as a double, so its text is its ECMAScript text). Shared by the tape parser and the noRows scan. */
static inline __attribute__((always_inline)) long number_token_end(const uint8_t *in, size_t p, size_t end, int *small_int) {
  int digits = 0, plain = 1;
  uint64_t v = 0;
  if (p < end && in[p] == '-') p++;
  if (p >= end) return -1;
  if (in[p] == '0') { p++; digits = 1; }
  else if (in[p] >= '1' && in[p] <= '9') {
    while (p < end && in[p] >= '0' && in[p] <= '9') { if (digits < 19) v = v * 10 + (in[p] - '0'); p++; digits++; }
  } else return -1;
  if (p < end && in[p] == '.') {
    plain = 0;
    size_t f = ++p;
    while (p < end && in[p] >= '0' && in[p] <= '9') p++;
    if (p == f) return -1;
  }
  if (p < end && (in[p] == 'e' || in[p] == 'E')) {
    plain = 0;
    p++;
    if (p < end && (in[p] == '+' || in[p] == '-')) p++;
    size_t f = p;
    while (p < end && in[p] >= '0' && in[p] <= '9') p++;
    if (p == f) return -1;
  }
  *small_int = plain && (digits <= 15 || (digits == 16 && v <= (1ull << 53)));
  return (long)p;
}

/* Why a body is left to the reference (JS) path; NULL reason = parsed. */
typedef struct {
  const char *reason;
} verdict_t;

/* Parses one JSON value at in[*pos..end) (JSON whitespace around it skipped, *pos left after it).
 * Returns NULL on success, else a reason: invalid JSON, invalid UTF-8, a lone surrogate, nesting
 * deeper than max_depth, an object with duplicate, too many or array-index keys. */
const char *tape_parse(tape_t *t, const uint8_t *in, size_t *pos, size_t end, int max_depth);
void tape_reset(tape_t *t);
void tape_free(tape_t *t);

/* ECMAScript Number::toString of the number token in[0..len) (what JSON.stringify writes for the
 * parsed double; non-finite → "null" when json, else returns 0). Writes into out (>= 32 bytes). */
int es_number(const uint8_t *tok, size_t len, char *out, int json);
double token_double(const uint8_t *tok, size_t len);

#endif
