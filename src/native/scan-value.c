/* The noRows scan's value scanners (scan-value.h): strict JSON without escapes, each value's descriptor
 * written and its row JSON's length counted as it is parsed; anything else BAILs to the tape path. */
#include "scan-value.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* As tape.c's: the length of the valid UTF-8 sequence at in[p] (a lead byte >= 0x80), or 0. */
static size_t utf8_seq(const uint8_t *in, size_t p, size_t end) {
  uint8_t c = in[p], lo = 0x80, hi = 0xBF;
  size_t n;
  if (c >= 0xC2 && c <= 0xDF) n = 2;
  else if (c >= 0xE0 && c <= 0xEF) { n = 3; if (c == 0xE0) lo = 0xA0; if (c == 0xED) hi = 0x9F; }
  else if (c >= 0xF0 && c <= 0xF4) { n = 4; if (c == 0xF0) lo = 0x90; if (c == 0xF4) hi = 0x8F; }
  else return 0;
  if (end - p < n || in[p + 1] < lo || in[p + 1] > hi) return 0;
  for (size_t i = 2; i < n; i++) if ((in[p + i] & 0xC0) != 0x80) return 0;
  return n;
}

#ifdef __SSE2__
#include <emmintrin.h>

/* Room for word w of the quote bits (and the zero word after it); 0 when out of memory. */
static int qbits_room(scan_t *s, size_t w) {
  if (w + 1 < s->capq) return 1;
  size_t cap = s->capq ? s->capq * 2 : 64;
  while (cap <= w + 1) cap *= 2;
  uint64_t *q = realloc(s->qbits, cap * sizeof *q);
  if (!q) return 0;
  s->qbits = q;
  s->capq = cap;
  return 1;
}

size_t scan_line(scan_t *s, size_t limit) {
  const uint8_t *b = s->in + s->p;
  size_t n = limit - s->p, len = n;
  const __m128i quote = _mm_set1_epi8('"'), bslash = _mm_set1_epi8('\\'), space = _mm_set1_epi8(0x20), nl = _mm_set1_epi8('\n');
  unsigned bad = 0;
  int room = 1, found = 0;
  s->line = s->p;
  size_t w = 0;
  for (; !found; w++) {
    room = room && qbits_room(s, w);
    uint64_t m = 0;
    for (size_t k = 0; k < 4; k++) {
      size_t at = w * 64 + k * 16;
      __m128i x;
      if (at + 16 <= n) x = _mm_loadu_si128((const __m128i *)(b + at));
      else {
        uint8_t tail[16];
        memset(tail, ' ', 16);
        if (at < n) memcpy(tail, b + at, n - at);
        x = _mm_loadu_si128((const __m128i *)tail);
      }
      unsigned q = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(x, quote));
      /* Signed compare: bytes >= 0x80 are negative, so "< 0x20" catches them too ('\n' as well: masked off below). */
      unsigned odd = (unsigned)_mm_movemask_epi8(_mm_or_si128(_mm_cmpeq_epi8(x, bslash), _mm_cmplt_epi8(x, space)));
      unsigned e = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(x, nl));
      if (at >= n) e = 1; /* past the limit: the line ends there */
      if (e) {
        unsigned keep = (1u << __builtin_ctz(e)) - 1;
        len = at + (size_t)__builtin_ctz(e);
        if (len > n) len = n;
        q &= keep; odd &= keep;
        found = 1;
      }
      bad |= odd;
      m |= (uint64_t)q << (16 * k);
      if (found) break;
    }
    if (room) s->qbits[w] = m;
  }
  if (room) s->qbits[w] = 0;
  s->end = s->p + len;
  s->simple = room && bad == 0;
  return s->end;
}
#else
size_t scan_line(scan_t *s, size_t limit) {
  const uint8_t *nl = memchr(s->in + s->p, '\n', limit - s->p);
  s->line = s->p;
  s->end = nl ? (size_t)(nl - s->in) : limit;
  s->simple = 0;
  return s->end;
}
#endif

/* A string without escapes (s->p after its opening quote): its bytes in the input. Escapes, control bytes,
 * invalid UTF-8 or no closing quote: BAIL. */
static inline __attribute__((always_inline)) int string_at(scan_t *s, uint32_t *off, uint32_t *len) {
  size_t q = s->p;
  if (s->simple) {
    size_t r = q - s->line;
    uint64_t w = s->qbits[r >> 6] >> (r & 63);
    while (!w) {
      r = (r | 63) + 1;
      if (s->line + r >= s->end) return BAIL;
      w = s->qbits[r >> 6];
    }
    q = s->line + r + (size_t)__builtin_ctzll(w);
    if (q >= s->end) return BAIL;
  } else for (;;) {
    q = plain_run_end(s->in, q, s->end);
    if (q >= s->end) return BAIL;
    uint8_t ch = s->in[q];
    if (ch == '"') break;
    if (ch < 0x80) return BAIL;
    size_t n = utf8_seq(s->in, q, s->end);
    if (n == 0) return BAIL;
    q += n;
  }
  *off = (uint32_t)s->p;
  *len = (uint32_t)(q - s->p);
  s->p = q + 1;
  return 0;
}

/* A number token (tape.c's grammar): its JSON text's length as the row writes it and its type code. */
static inline __attribute__((always_inline)) int number_at(scan_t *s, uint64_t *json, int *code) {
  const uint8_t *in = s->in;
  size_t st = s->p;
  int small;
  long e = number_token_end(in, st, s->end, &small);
  if (e < 0) return BAIL;
  size_t len = (size_t)e - st;
  s->p = (size_t)e;
  if (small && !(len == 2 && in[st] == '-' && in[st + 1] == '0')) *json = len;
  else {
    char num[64];
    es_number(in + st, len, num, 1);
    *json = strlen(num);
  }
  if (small) *code = 2;
  else {
    double d = token_double(in + st, len);
    *code = isfinite(d) && floor(d) == d ? 2 : 3;
  }
  return 0;
}

static int is_index_key(const uint8_t *k, uint32_t len) {
  if (len == 0 || len > 10) return 0;
  for (uint32_t i = 0; i < len; i++) if (k[i] < '0' || k[i] > '9') return 0;
  return 1;
}

/* A key's bit in its object's 256-bit filter: equal keys have equal bits (then the bytes decide). */
static inline unsigned key_bit(const uint8_t *k, uint32_t len) {
  uint64_t head = len, tail = 0;
  if (len >= 8) { memcpy(&head, k, 8); memcpy(&tail, k + len - 8, 8); }
  else if (len >= 4) { uint32_t a, b; memcpy(&a, k, 4); memcpy(&b, k + len - 4, 4); head = a; tail = (uint64_t)b << 8 | len; }
  else if (len > 0) tail = (uint64_t)k[0] << 16 | (uint64_t)k[len >> 1] << 8 | k[len - 1];
  return (unsigned)(((head * 0xff51afd7ed558ccdull) ^ (tail * 0x9E3779B97F4A7C15ull)) >> 56);
}

/* The next member's key and its ':' (the object's keys so far: s->koff[base..nk)); BAIL on an array-index or
 * 257th key, a duplicate key when `check`, or anything but a plain key. Unchecked, keys are not kept. */
static inline __attribute__((always_inline)) int key_at(scan_t *s, size_t base, uint64_t *seen, uint32_t *koff, uint32_t *klen, int check) {
  skip_ws(s);
  if (s->p >= s->end || s->in[s->p] != '"') return BAIL;
  s->p++;
  if (string_at(s, koff, klen)) return BAIL;
  const uint8_t *k = s->in + *koff;
  if (is_index_key(k, *klen) || s->nk - base >= MAX_KEYS) return BAIL;
  if (!check) {
    skip_ws(s);
    if (s->p >= s->end || s->in[s->p] != ':') return BAIL;
    s->p++;
    return 0;
  }
  /* The object's 256-bit filter of its keys (seen[4]): a key whose bit is clear is new without compares. */
  unsigned bit = key_bit(k, *klen);
  if ((seen[bit >> 6] >> (bit & 63)) & 1) {
    for (size_t i = base; i < s->nk; i++)
      if (s->klen[i] == *klen && memcmp(s->in + s->koff[i], k, *klen) == 0) return BAIL;
  }
  seen[bit >> 6] |= 1ull << (bit & 63);
  if (s->nk == s->capk) {
    size_t cap = s->capk ? s->capk * 2 : 256;
    uint32_t *o = realloc(s->koff, cap * sizeof *o);
    if (o) s->koff = o;
    uint32_t *l = realloc(s->klen, cap * sizeof *l);
    if (l) s->klen = l;
    if (!o || !l) return BAIL;
    s->capk = cap;
  }
  s->koff[s->nk] = *koff; s->klen[s->nk] = *klen; s->nk++;
  skip_ws(s);
  if (s->p >= s->end || s->in[s->p] != ':') return BAIL;
  s->p++;
  return 0;
}

static void desc_patch(bytes_t *d, size_t at) {
  uint32_t len = (uint32_t)(d->n - at - 4);
  if (!d->oom) memcpy(d->p + at, &len, 4);
}

static int scan_array(scan_t *s, int level, uint64_t *json, int *code);

static inline __attribute__((always_inline)) int lit_at(scan_t *s, const char *w, size_t n) {
  if (s->end - s->p < n || memcmp(s->in + s->p, w, n) != 0) return 0;
  s->p += n;
  return 1;
}

/* Any value at nesting `level` (a container's level: the event is 1): its row JSON's length (objects not
 * wrapped) and its type code (type_code of transform.c), containers' descriptors written. */
static inline __attribute__((always_inline)) int value_at(scan_t *s, int level, uint64_t *json, int *code) {
  skip_ws(s);
  if (s->p >= s->end) return BAIL;
  switch (s->in[s->p]) {
    case '{': *code = 5; return scan_object(s, level, json);
    case '[': return scan_array(s, level, json, code);
    case '"': {
      uint32_t off, len;
      s->p++;
      if (string_at(s, &off, &len) || (int64_t)len > s->c->max_string_bytes) return BAIL;
      *json = (uint64_t)len + 2; *code = 1;
      return 0;
    }
    case 't': *json = 4; *code = 4; return lit_at(s, "true", 4) ? 0 : BAIL;
    case 'f': *json = 5; *code = 4; return lit_at(s, "false", 5) ? 0 : BAIL;
    case 'n': *json = 4; *code = 0; return lit_at(s, "null", 4) ? 0 : BAIL;
    default: return number_at(s, json, code);
  }
}

/* One member after its key: its descriptor entry (code, key length, key, then a container's content) and
 * its row JSON's length ("key":value, an object value wrapped in [ ]). */
static inline __attribute__((always_inline)) int member_at(scan_t *s, uint32_t koff, uint32_t klen, int level, uint64_t *json) {
  if ((int64_t)klen > s->c->max_string_bytes) return BAIL;
  bytes_t *d = s->d;
  size_t ce = d->n;
  b_reserve(d, 5 + (size_t)klen);
  if (d->oom) return BAIL;
  uint8_t *o = d->p + d->n;
  o[1] = (uint8_t)klen; o[2] = (uint8_t)(klen >> 8); o[3] = (uint8_t)(klen >> 16); o[4] = (uint8_t)(klen >> 24);
  copy_bytes(o + 5, s->in + koff, klen);
  d->n += 5 + (size_t)klen;
  skip_ws(s);
  uint8_t first = s->p < s->end ? s->in[s->p] : 0;
  uint64_t vj;
  int vc;
  if (value_at(s, level + 1, &vj, &vc)) return BAIL;
  if (d->oom) return BAIL;
  d->p[ce] = (uint8_t)(vc | (first == '{' ? 0x40 : first == '[' ? 0x80 : 0));
  *json = (uint64_t)klen + 3 + vj + (first == '{' ? 2 : 0);
  return 0;
}

/* An object (s->p at its '{') at nesting `level`: u32 length + members into the descriptor; json = {...}. */
int scan_object(scan_t *s, int level, uint64_t *json) {
  if (level > s->c->max_depth) return BAIL;
  s->p++;
  bytes_t *d = s->d;
  size_t at = d->n, base = s->nk;
  uint64_t seen[4] = {0, 0, 0, 0};
  b_u32(d, 0);
  uint64_t total = 2;
  skip_ws(s);
  if (s->p < s->end && s->in[s->p] == '}') s->p++;
  else for (uint32_t k = 0;; k++) {
    uint32_t koff, klen;
    uint64_t mj;
    if (k >= MAX_KEYS || key_at(s, base, seen, &koff, &klen, s->checked) || member_at(s, koff, klen, level, &mj)) return BAIL;
    total += mj + (k ? 1 : 0);
    skip_ws(s);
    if (s->p < s->end && s->in[s->p] == ',') { s->p++; continue; }
    if (s->p < s->end && s->in[s->p] == '}') { s->p++; break; }
    return BAIL;
  }
  s->nk = base;
  desc_patch(d, at);
  *json = total;
  return 0;
}

/* An array (s->p at its '['): u32 length + per container element 'o'/'a' and its content; json = [...]. */
static int scan_array(scan_t *s, int level, uint64_t *json, int *code) {
  if (level > s->c->max_depth) return BAIL;
  s->p++;
  bytes_t *d = s->d;
  size_t at = d->n;
  b_u32(d, 0);
  uint64_t total = 2;
  int acode = 0;
  skip_ws(s);
  if (s->p < s->end && s->in[s->p] == ']') s->p++;
  else for (uint32_t k = 0;; k++) {
    skip_ws(s);
    uint8_t first = s->p < s->end ? s->in[s->p] : 0;
    if (first == '{' || first == '[') b_byte(d, first == '{' ? 'o' : 'a');
    uint64_t ej;
    int ec;
    if (value_at(s, level + 1, &ej, &ec)) return BAIL;
    /* typeOf of an array: its first element with a type (nulls and empty arrays have none). */
    if (acode == 0 && ec != 0) acode = first == '[' ? 11 : ec + 5;
    total += ej + (k ? 1 : 0);
    skip_ws(s);
    if (s->p < s->end && s->in[s->p] == ',') { s->p++; continue; }
    if (s->p < s->end && s->in[s->p] == ']') { s->p++; break; }
    return BAIL;
  }
  desc_patch(d, at);
  *json = total;
  *code = acode;
  return 0;
}

/* The scanners for scan-body.c's event loop; inside this file the inlined forms above are used (calls per
 * member cost ~35% of the scan: 0.97 vs 1.45 GB/s). */
int scan_string(scan_t *s, uint32_t *off, uint32_t *len) { return string_at(s, off, len); }
int take_key(scan_t *s, size_t base, uint64_t *seen, uint32_t *koff, uint32_t *klen) { return key_at(s, base, seen, koff, klen, 1); }
int scan_member(scan_t *s, uint32_t koff, uint32_t klen, int level, uint64_t *json) { return member_at(s, koff, klen, level, json); }
int scan_value(scan_t *s, int level, uint64_t *json, int *code) { return value_at(s, level, json, code); }
int scan_number(scan_t *s, uint64_t *json, int *code) { return number_at(s, json, code); }
int scan_lit(scan_t *s, const char *w, size_t n) { return lit_at(s, w, n); }
