/* A strict JSON parser into a tape (see tape.h): RFC 8259 grammar as JSON.parse takes it, strings
 * decoded to UTF-8 in an arena, anything the transform cannot reproduce exactly reported as a reason.
 * Over 300 lines: one recursive-descent parser whose scanners share the tape and arena state. */
#include "tape.h"

#include <stdlib.h>
#include <string.h>

#define MAX_KEYS 256

void b_grow(bytes_t *b, size_t extra) {
  if (b->oom || b->n + extra <= b->cap) return;
  size_t cap = b->cap ? b->cap : 256;
  while (cap < b->n + extra) cap *= 2;
  uint8_t *p;
  if (b->borrowed) {
    p = malloc(cap);
    if (p && b->n) memcpy(p, b->p, b->n);
  } else {
    p = realloc(b->p, cap);
  }
  if (!p) { b->oom = 1; return; }
  b->p = p;
  b->cap = cap;
  b->borrowed = 0;
}

void b_free(bytes_t *b) {
  if (!b->borrowed) free(b->p);
  b->borrowed = 0;
  b->p = NULL;
  b->n = b->cap = 0;
}

void tape_reset(tape_t *t) {
  t->n = 0;
  t->arena.n = 0;
}

void tape_free(tape_t *t) {
  free(t->nodes);
  t->nodes = NULL;
  t->n = t->cap = 0;
  b_free(&t->arena);
  free(t->keyfp);
  t->keyfp = NULL;
  t->nkeyfp = t->capkeyfp = 0;
}

typedef struct {
  tape_t *t;
  const uint8_t *in;
  size_t p, end;
  int max_depth;
} parser_t;

static inline void skip_ws(parser_t *s) {
  while (s->p < s->end) {
    uint8_t c = s->in[s->p];
    if (c != ' ' && c != '\t' && c != '\n' && c != '\r') break;
    s->p++;
  }
}

static long new_node(parser_t *s, uint8_t type) {
  tape_t *t = s->t;
  if (t->n == t->cap) {
    size_t cap = t->cap ? t->cap * 2 : 1024;
    node_t *nn = realloc(t->nodes, cap * sizeof(node_t));
    if (!nn) { t->oom = 1; return -1; }
    t->nodes = nn;
    t->cap = cap;
  }
  t->nodes[t->n] = (node_t){.t = type};
  return (long)t->n++;
}

static int hexval(uint8_t c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

static long read_u4(parser_t *s) {
  if (s->end - s->p < 4) return -1;
  long v = 0;
  for (int i = 0; i < 4; i++) {
    int h = hexval(s->in[s->p + i]);
    if (h < 0) return -1;
    v = v * 16 + h;
  }
  s->p += 4;
  return v;
}

static void put_utf8(bytes_t *b, uint32_t cp) {
  uint8_t x[4];
  size_t n;
  if (cp < 0x80) { x[0] = (uint8_t)cp; n = 1; }
  else if (cp < 0x800) { x[0] = 0xC0 | (cp >> 6); x[1] = 0x80 | (cp & 0x3F); n = 2; }
  else if (cp < 0x10000) { x[0] = 0xE0 | (cp >> 12); x[1] = 0x80 | ((cp >> 6) & 0x3F); x[2] = 0x80 | (cp & 0x3F); n = 3; }
  else { x[0] = 0xF0 | (cp >> 18); x[1] = 0x80 | ((cp >> 12) & 0x3F); x[2] = 0x80 | ((cp >> 6) & 0x3F); x[3] = 0x80 | (cp & 0x3F); n = 4; }
  b_put(b, x, n);
}

/* Length of the valid UTF-8 sequence starting at in[p] (a lead byte >= 0x80), or 0 when invalid. */
static size_t utf8_seq(const uint8_t *in, size_t p, size_t end) {
  uint8_t c = in[p];
  size_t n;
  uint8_t lo = 0x80, hi = 0xBF;
  if (c >= 0xC2 && c <= 0xDF) n = 2;
  else if (c >= 0xE0 && c <= 0xEF) { n = 3; if (c == 0xE0) lo = 0xA0; if (c == 0xED) hi = 0x9F; }
  else if (c >= 0xF0 && c <= 0xF4) { n = 4; if (c == 0xF0) lo = 0x90; if (c == 0xF4) hi = 0x8F; }
  else return 0;
  if (end - p < n) return 0;
  if (in[p + 1] < lo || in[p + 1] > hi) return 0;
  for (size_t i = 2; i < n; i++) if ((in[p + i] & 0xC0) != 0x80) return 0;
  return n;
}

/* The string at s->p (after its opening quote): its own input bytes when it has no escapes (*in_input
 * = 1, off into the input), else decoded into the arena. */
static const char *parse_string(parser_t *s, uint32_t *off, uint32_t *len, uint8_t *in_input) {
  size_t q = s->p;
  for (;;) {
    q = plain_run_end(s->in, q, s->end);
    if (q < s->end && s->in[q] >= 0x80) {
      size_t n = utf8_seq(s->in, q, s->end);
      if (n == 0) return "invalid UTF-8";
      q += n;
      continue;
    }
    break;
  }
  if (q < s->end && s->in[q] == '"') {
    *in_input = 1;
    *off = (uint32_t)s->p;
    *len = (uint32_t)(q - s->p);
    s->p = q + 1;
    return NULL;
  }
  *in_input = 0;
  bytes_t *a = &s->t->arena;
  *off = (uint32_t)a->n;
  for (;;) {
    size_t q = plain_run_end(s->in, s->p, s->end);
    if (q > s->p) b_put(a, s->in + s->p, q - s->p);
    s->p = q;
    if (q >= s->end) return "invalid JSON (unterminated string)";
    uint8_t c = s->in[q];
    if (c == '"') { s->p++; break; }
    if (c < 0x20) return "invalid JSON (control character in a string)";
    if (c >= 0x80) {
      size_t n = utf8_seq(s->in, q, s->end);
      if (n == 0) return "invalid UTF-8";
      b_put(a, s->in + q, n);
      s->p += n;
      continue;
    }
    if (s->p + 1 >= s->end) return "invalid JSON (unterminated escape)";
    uint8_t e = s->in[s->p + 1];
    s->p += 2;
    switch (e) {
      case '"': b_byte(a, '"'); break;
      case '\\': b_byte(a, '\\'); break;
      case '/': b_byte(a, '/'); break;
      case 'b': b_byte(a, '\b'); break;
      case 'f': b_byte(a, '\f'); break;
      case 'n': b_byte(a, '\n'); break;
      case 'r': b_byte(a, '\r'); break;
      case 't': b_byte(a, '\t'); break;
      case 'u': {
        long u = read_u4(s);
        if (u < 0) return "invalid JSON (bad \\u escape)";
        if (u >= 0xDC00 && u <= 0xDFFF) return "a lone surrogate";
        if (u >= 0xD800 && u <= 0xDBFF) {
          if (s->end - s->p < 6 || s->in[s->p] != '\\' || s->in[s->p + 1] != 'u') return "a lone surrogate";
          s->p += 2;
          long lo = read_u4(s);
          if (lo < 0) return "invalid JSON (bad \\u escape)";
          if (lo < 0xDC00 || lo > 0xDFFF) return "a lone surrogate";
          u = 0x10000 + ((u - 0xD800) << 10) + (lo - 0xDC00);
        }
        put_utf8(a, (uint32_t)u);
        break;
      }
      default: return "invalid JSON (bad escape)";
    }
  }
  if (a->oom) return "out of memory";
  *len = (uint32_t)(a->n - *off);
  return NULL;
}

static const char *parse_number(parser_t *s, node_t *n) {
  int small;
  long e = number_token_end(s->in, s->p, s->end, &small);
  if (e < 0) return "invalid JSON (number)";
  n->voff = (uint32_t)s->p;
  n->vlen = (uint32_t)((size_t)e - s->p);
  n->small_int = (uint8_t)small;
  s->p = (size_t)e;
  return NULL;
}

static int is_index_key(const uint8_t *k, uint32_t len) {
  if (len == 0 || len > 10) return 0;
  for (uint32_t i = 0; i < len; i++) if (k[i] < '0' || k[i] > '9') return 0;
  return 1;
}

static const char *parse_value(parser_t *s, int depth);

/* A key's fingerprint: equal keys have equal ones (different keys rarely do: then bytes decide). */
static uint64_t key_fp(const uint8_t *k, uint32_t len) {
  uint64_t head = 0, tail = 0;
  /* Fixed-size, overlapping loads (register loads, no byte-wise stack copy to stall on). */
  if (len >= 8) { memcpy(&head, k, 8); memcpy(&tail, k + len - 8, 8); }
  else if (len >= 4) { uint32_t a, b; memcpy(&a, k, 4); memcpy(&b, k + len - 4, 4); head = a; tail = b; }
  else if (len > 0) head = (uint64_t)k[0] << 16 | (uint64_t)k[len >> 1] << 8 | k[len - 1];
  uint64_t h = (head ^ (tail * 0x9E3779B97F4A7C15ull)) * 0xff51afd7ed558ccdull;
  return h ^ (h >> 29) ^ ((uint64_t)len << 48);
}

/* 1 when one of the object's `count` earlier members (nodes self+1, then each one's `next`; their
 * fingerprints at fps[0..count)) has key k. */
static int has_key(parser_t *s, long self, const uint64_t *fps, uint32_t count, uint64_t fp, const uint8_t *k, uint32_t klen) {
  for (uint32_t i = 0; i < count; i++) {
    if (fps[i] != fp) continue;
    uint32_t c = (uint32_t)self + 1;
    for (uint32_t j = 0; j < i; j++) c = s->t->nodes[c].next;
    const node_t *m = &s->t->nodes[c];
    if (m->klen == klen && memcmp(key_of(s->t, s->in, m), k, klen) == 0) return 1;
  }
  return 0;
}

static int push_fp(tape_t *t, uint64_t fp) {
  if (t->nkeyfp == t->capkeyfp) {
    size_t cap = t->capkeyfp ? t->capkeyfp * 2 : 256;
    uint64_t *f = realloc(t->keyfp, cap * sizeof(uint64_t));
    if (!f) { t->oom = 1; return 0; }
    t->keyfp = f;
    t->capkeyfp = cap;
  }
  t->keyfp[t->nkeyfp++] = fp;
  return 1;
}

static const char *parse_object(parser_t *s, long self, int depth) {
  uint32_t count = 0;
  size_t base = s->t->nkeyfp;
  /* A 256-bit filter of the fingerprints seen: a key whose bit is clear is new without any compare. */
  uint64_t seen[4] = {0, 0, 0, 0};
  skip_ws(s);
  if (s->p < s->end && s->in[s->p] == '}') { s->p++; goto done; }
  for (;;) {
    skip_ws(s);
    if (s->p >= s->end || s->in[s->p] != '"') return "invalid JSON (expected a key)";
    s->p++;
    uint32_t koff, klen;
    uint8_t kin;
    const char *err = parse_string(s, &koff, &klen, &kin);
    if (err) return err;
    const uint8_t *k = kin ? s->in + koff : s->t->arena.p + koff;
    if (is_index_key(k, klen)) return "an array-index key";
    if (count == MAX_KEYS) return "an object with too many keys";
    uint64_t fp = key_fp(k, klen);
    unsigned bit = (unsigned)(fp >> 20) & 255;
    if ((seen[bit >> 6] >> (bit & 63)) & 1) {
      if (has_key(s, self, s->t->keyfp + base, count, fp, k, klen)) return "a duplicate key";
    }
    seen[bit >> 6] |= 1ull << (bit & 63);
    if (!push_fp(s->t, fp)) return "out of memory";
    count++;
    skip_ws(s);
    if (s->p >= s->end || s->in[s->p] != ':') return "invalid JSON (expected ':')";
    s->p++;
    long child = (long)s->t->n;
    err = parse_value(s, depth + 1);
    if (err) return err;
    s->t->nodes[child].koff = koff;
    s->t->nodes[child].klen = klen;
    s->t->nodes[child].kin = kin;
    skip_ws(s);
    if (s->p < s->end && s->in[s->p] == ',') { s->p++; continue; }
    if (s->p < s->end && s->in[s->p] == '}') { s->p++; break; }
    return "invalid JSON (expected ',' or '}')";
  }
done:
  s->t->nodes[self].count = count;
  s->t->nkeyfp = base;
  return NULL;
}

static const char *parse_array(parser_t *s, long self, int depth) {
  uint32_t count = 0;
  skip_ws(s);
  if (s->p < s->end && s->in[s->p] == ']') { s->p++; goto done; }
  for (;;) {
    const char *err = parse_value(s, depth + 1);
    if (err) return err;
    count++;
    skip_ws(s);
    if (s->p < s->end && s->in[s->p] == ',') { s->p++; continue; }
    if (s->p < s->end && s->in[s->p] == ']') { s->p++; break; }
    return "invalid JSON (expected ',' or ']')";
  }
done:
  s->t->nodes[self].count = count;
  return NULL;
}

static int lit(parser_t *s, const char *w, size_t n) {
  if (s->end - s->p < n || memcmp(s->in + s->p, w, n) != 0) return 0;
  s->p += n;
  return 1;
}

static const char *parse_value(parser_t *s, int depth) {
  skip_ws(s);
  if (s->p >= s->end) return "invalid JSON (unexpected end)";
  if (depth > s->max_depth) return "nesting deeper than the limit";
  uint8_t c = s->in[s->p];
  long self;
  const char *err = NULL;
  switch (c) {
    case '{': self = new_node(s, T_OBJ); if (self < 0) return "out of memory"; s->p++; err = parse_object(s, self, depth); break;
    case '[': self = new_node(s, T_ARR); if (self < 0) return "out of memory"; s->p++; err = parse_array(s, self, depth); break;
    case '"': {
      self = new_node(s, T_STR);
      if (self < 0) return "out of memory";
      s->p++;
      uint32_t off, len;
      uint8_t vin;
      err = parse_string(s, &off, &len, &vin);
      if (!err) { s->t->nodes[self].voff = off; s->t->nodes[self].vlen = len; s->t->nodes[self].vin = vin; }
      break;
    }
    case 't': self = new_node(s, T_TRUE); if (self < 0) return "out of memory"; if (!lit(s, "true", 4)) return "invalid JSON (literal)"; break;
    case 'f': self = new_node(s, T_FALSE); if (self < 0) return "out of memory"; if (!lit(s, "false", 5)) return "invalid JSON (literal)"; break;
    case 'n': self = new_node(s, T_NULL); if (self < 0) return "out of memory"; if (!lit(s, "null", 4)) return "invalid JSON (literal)"; break;
    default:
      if (c != '-' && (c < '0' || c > '9')) return "invalid JSON (unexpected character)";
      self = new_node(s, T_NUM);
      if (self < 0) return "out of memory";
      err = parse_number(s, &s->t->nodes[self]);
  }
  if (err) return err;
  s->t->nodes[self].next = (uint32_t)s->t->n;
  return NULL;
}

const char *tape_parse(tape_t *t, const uint8_t *in, size_t *pos, size_t end, int max_depth) {
  parser_t s = {t, in, *pos, end, max_depth};
  t->nkeyfp = 0;
  const char *err = parse_value(&s, 1);
  if (!err && (t->oom || t->arena.oom)) err = "out of memory";
  if (err) return err;
  skip_ws(&s);
  *pos = s.p;
  return NULL;
}
