/* Per-event transform over a parsed tape, mirroring store/event.ts + record-json.ts byte for byte:
 * the stored row JSON, the extra columns, the schema descriptor, the project and the hot values.
 * Over 300 lines: kept as one mirror of those two files so the byte-for-byte match reads side by side. */
#include "transform.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#define FAIL(msg) do { return (msg); } while (0)

/* ---- interning ------------------------------------------------------------------------- */

/* Four independent lanes of 8 bytes each, so long descriptors hash at several bytes a cycle. */
static uint32_t hash_bytes(const uint8_t *p, size_t n) {
  const uint64_t K = 0xff51afd7ed558ccdull;
  uint64_t h0 = 0x9E3779B97F4A7C15ull ^ n, h1 = 0xC2B2AE3D27D4EB4Full, h2 = 0x165667B19E3779F9ull, h3 = 0x27D4EB2F165667C5ull;
  size_t i = 0;
  for (; i + 32 <= n; i += 32) {
    uint64_t a, b, c, d;
    memcpy(&a, p + i, 8); memcpy(&b, p + i + 8, 8); memcpy(&c, p + i + 16, 8); memcpy(&d, p + i + 24, 8);
    h0 = (h0 ^ a) * K; h1 = (h1 ^ b) * K; h2 = (h2 ^ c) * K; h3 = (h3 ^ d) * K;
    h0 ^= h0 >> 32; h1 ^= h1 >> 32; h2 ^= h2 >> 32; h3 ^= h3 >> 32;
  }
  uint64_t h = h0 ^ (h1 * 3) ^ (h2 * 5) ^ (h3 * 7);
  for (; i + 8 <= n; i += 8) {
    uint64_t w;
    memcpy(&w, p + i, 8);
    h = (h ^ w) * K;
    h ^= h >> 32;
  }
  for (; i < n; i++) h = (h ^ p[i]) * 0x100000001b3ull;
  h ^= h >> 29;
  return (uint32_t)h;
}

static void intern_grow(intern_t *t) {
  size_t ns = t->nslots ? t->nslots * 2 : 64;
  uint32_t *slots = calloc(ns, sizeof(uint32_t));
  if (!slots) { t->oom = 1; return; }
  for (size_t i = 0; i < t->n; i++) {
    uint32_t st = i ? t->ends[i - 1] : 0;
    size_t s = hash_bytes(t->data.p + st, t->ends[i] - st) & (ns - 1);
    while (slots[s]) s = (s + 1) & (ns - 1);
    slots[s] = (uint32_t)i + 1;
  }
  free(t->slots);
  t->slots = slots;
  t->nslots = ns;
}

/* The slot holding bytes p[0..n) (*id: theirs), or the empty slot where they would go (*id: -1). */
static size_t slot_of(const intern_t *t, const uint8_t *p, size_t n, long *id) {
  size_t s = hash_bytes(p, n) & (t->nslots - 1);
  while (t->slots[s]) {
    uint32_t i = t->slots[s] - 1;
    uint32_t st = i ? t->ends[i - 1] : 0;
    if (t->ends[i] - st == n && memcmp(t->data.p + st, p, n) == 0) { *id = i; return s; }
    s = (s + 1) & (t->nslots - 1);
  }
  *id = -1;
  return s;
}

long intern(intern_t *t, const uint8_t *p, size_t n) {
  if ((t->n + 1) * 2 > t->nslots) intern_grow(t);
  if (t->oom) return -1;
  long found;
  size_t s = slot_of(t, p, n, &found);
  if (found >= 0) return found;
  if (t->n == t->cap) {
    size_t cap = t->cap ? t->cap * 2 : 64;
    uint32_t *e = realloc(t->ends, cap * sizeof(uint32_t));
    if (!e) { t->oom = 1; return -1; }
    t->ends = e;
    t->cap = cap;
  }
  b_put(&t->data, p, n);
  if (t->data.oom) { t->oom = 1; return -1; }
  t->ends[t->n] = (uint32_t)t->data.n;
  t->slots[s] = (uint32_t)t->n + 1;
  return (long)t->n++;
}

long intern_find(const intern_t *t, const uint8_t *p, size_t n) {
  if (t->nslots == 0 || t->oom) return -1;
  long id;
  slot_of(t, p, n, &id);
  return id;
}

static void intern_free(intern_t *t) {
  b_free(&t->data);
  free(t->ends);
  free(t->slots);
  memset(t, 0, sizeof *t);
}

void ctx_free(ctx_t *c) {
  b_free(&c->rows);
  free(c->meta);
  intern_free(&c->strs);
  intern_free(&c->descs);
  b_free(&c->desc);
  tape_free(&c->tape);
}

/* ---- writing ------------------------------------------------------------------------------ */

static const char HEX[] = "0123456789abcdef";

/* A decoded UTF-8 string as JSON.stringify writes it. */
static void put_escaped(bytes_t *b, const uint8_t *s, size_t n) {
  b_reserve(b, n + 2);
  b_byte(b, '"');
  size_t run = 0;
  for (size_t i = 0; i < n; i++) {
    while (i + 8 <= n && !json_special8(s + i, 0)) i += 8;
    if (i >= n) break;
    uint8_t c = s[i];
    if (c >= 0x20 && c != '"' && c != '\\') continue;
    b_put(b, s + run, i - run);
    run = i + 1;
    char e[6] = {'\\', 0, 0, 0, 0, 0};
    size_t el = 2;
    switch (c) {
      case '"': e[1] = '"'; break;
      case '\\': e[1] = '\\'; break;
      case '\b': e[1] = 'b'; break;
      case '\f': e[1] = 'f'; break;
      case '\n': e[1] = 'n'; break;
      case '\r': e[1] = 'r'; break;
      case '\t': e[1] = 't'; break;
      default: e[1] = 'u'; e[2] = '0'; e[3] = '0'; e[4] = HEX[c >> 4]; e[5] = HEX[c & 15]; el = 6;
    }
    b_put(b, e, el);
  }
  b_put(b, s + run, n - run);
  b_byte(b, '"');
}


static const node_t *N(ctx_t *c, uint32_t i) { return &c->tape.nodes[i]; }

/* typeOf of schema-tree.ts as a code: 0 none, 1-5 STRING INT64 FLOAT64 BOOL RECORD, 6-10 REPEATED those, 11 REPEATED JSON. */
static int type_code(ctx_t *c, const uint8_t *in, uint32_t i) {
  const node_t *n = N(c, i);
  switch (n->t) {
    case T_STR: return 1;
    case T_NUM: {
      if (n->small_int) return 2;
      double v = token_double(in + n->voff, n->vlen);
      return isfinite(v) && floor(v) == v ? 2 : 3;
    }
    case T_TRUE: case T_FALSE: return 4;
    case T_OBJ: return 5;
    case T_ARR: {
      uint32_t e = i + 1;
      for (uint32_t k = 0; k < n->count; k++, e = N(c, e)->next) {
        if (N(c, e)->t == T_NULL) continue;
        int t = type_code(c, in, e);
        if (t == 0) continue;
        return N(c, e)->t == T_ARR ? 11 : t + 5;
      }
      return 0;
    }
    default: return 0;
  }
}

typedef struct {
  ctx_t *c;
  const uint8_t *in;
  bytes_t *out;
  /* no_rows: strings that are their own bytes in the input (no escapes, so they need none) are only counted. */
  int skip;
} walk_t;

/* put_escaped of a string, or (skip, and `own`: the string is its input bytes, which hold nothing to
 * escape) only the bytes it would take. */
static inline __attribute__((always_inline)) void put_str(walk_t *w, const uint8_t *s, size_t n, int own) {
  if (!own) { put_escaped(w->out, s, n); return; }
  if (w->skip) { w->c->no_rows_bytes += (double)n + 2; return; }
  /* Its own input bytes: the parser saw no quote, backslash or control byte in them, so nothing to escape. */
  bytes_t *b = w->out;
  b_reserve(b, n + 2);
  if (b->oom) return;
  b->p[b->n] = '"';
  copy_bytes(b->p + b->n + 1, s, n);
  b->p[b->n + 1 + n] = '"';
  b->n += n + 2;
}

/* Decimal text of v (as printf's %lld). */
static void put_i64(bytes_t *b, int64_t v) {
  char t[24];
  size_t k = sizeof t;
  uint64_t u = v < 0 ? 0 - (uint64_t)v : (uint64_t)v;
  do { t[--k] = (char)('0' + u % 10); u /= 10; } while (u);
  if (v < 0) t[--k] = '-';
  b_put(b, t + k, sizeof t - k);
}

static const char *write_value(walk_t *w, uint32_t i, int depth);

static void desc_patch(bytes_t *d, size_t at) {
  uint32_t len = (uint32_t)(d->n - at - 4);
  if (d->oom) return;
  memcpy(d->p + at, &len, 4);
}

/* The descriptor's code of a member: its type code, with 0x40 when an object's, 0x80 when an array's content follows. */
static inline __attribute__((always_inline)) int member_code(ctx_t *c, const uint8_t *in, uint32_t i) {
  uint8_t t = N(c, i)->t;
  return type_code(c, in, i) | (t == T_OBJ ? 0x40 : t == T_ARR ? 0x80 : 0);
}

static inline __attribute__((always_inline)) const char *write_key(walk_t *w, const node_t *m, int tc) {
  if ((int64_t)m->klen > w->c->max_string_bytes) FAIL("a key longer than the limit");
  const uint8_t *k = key_of(&w->c->tape, w->c->in, m);
  put_str(w, k, m->klen, m->kin);
  b_byte(w->out, ':');
  bytes_t *d = &w->c->desc;
  b_reserve(d, 5 + (size_t)m->klen);
  if (d->oom) return NULL;
  uint8_t *o = d->p + d->n;
  o[0] = (uint8_t)tc;
  o[1] = (uint8_t)m->klen; o[2] = (uint8_t)(m->klen >> 8); o[3] = (uint8_t)(m->klen >> 16); o[4] = (uint8_t)(m->klen >> 24);
  copy_bytes(o + 5, k, m->klen);
  d->n += 5 + (size_t)m->klen;
  return NULL;
}

/* An object's members, record-shaped, not wrapped (copyObject). */
/* The common member in one go: a key and a string value that are their own input bytes (nothing to
 * escape), both within the limit, written as write_key + write_value would; 0 (nothing written) otherwise. */
static inline int write_plain_member(walk_t *w, const node_t *mn) {
  if (!mn->kin || mn->t != T_STR || !mn->vin) return 0;
  if ((int64_t)mn->klen > w->c->max_string_bytes || (int64_t)mn->vlen > w->c->max_string_bytes) return 0;
  const uint8_t *k = w->c->in + mn->koff, *v = w->c->in + mn->voff;
  bytes_t *b = w->out, *d = &w->c->desc;
  b_reserve(b, (size_t)mn->klen + mn->vlen + 5);
  b_reserve(d, 5 + (size_t)mn->klen);
  if (b->oom || d->oom) return 0;
  /* noRows: the member's row bytes ("k":"v") only counted, as put_str counts the key and value and the row
   * its ':' (one sum either way). */
  if (w->skip) w->c->no_rows_bytes += (double)mn->klen + mn->vlen + 5;
  else {
    uint8_t *o = b->p + b->n;
    o[0] = '"';
    copy_bytes(o + 1, k, mn->klen);
    o += 1 + mn->klen;
    o[0] = '"'; o[1] = ':'; o[2] = '"';
    copy_bytes(o + 3, v, mn->vlen);
    o[3 + mn->vlen] = '"';
    b->n += (size_t)mn->klen + mn->vlen + 5;
  }
  uint8_t *e = d->p + d->n;
  e[0] = 1; /* STRING */
  e[1] = (uint8_t)mn->klen; e[2] = (uint8_t)(mn->klen >> 8); e[3] = (uint8_t)(mn->klen >> 16); e[4] = (uint8_t)(mn->klen >> 24);
  copy_bytes(e + 5, k, mn->klen);
  d->n += 5 + (size_t)mn->klen;
  return 1;
}

static const char *write_object(walk_t *w, uint32_t i, int depth) {
  if (depth > w->c->max_depth) FAIL("nesting deeper than the limit");
  const node_t *o = N(w->c, i);
  uint32_t count = o->count;
  b_byte(w->out, '{');
  uint32_t m = i + 1;
  for (uint32_t k = 0; k < count; k++) {
    if (k) b_byte(w->out, ',');
    if (write_plain_member(w, N(w->c, m))) { m = N(w->c, m)->next; continue; }
    const char *err = write_key(w, N(w->c, m), member_code(w->c, w->in, m));
    if (err) return err;
    err = write_value(w, m, depth + 1);
    if (err) return err;
    m = N(w->c, m)->next;
  }
  b_byte(w->out, '}');
  return NULL;
}

/* Descriptor of a container value: u32 length, then its content (members, or array elements). */
static const char *write_array(walk_t *w, uint32_t i, int depth) {
  if (depth > w->c->max_depth) FAIL("nesting deeper than the limit");
  const node_t *a = N(w->c, i);
  uint32_t count = a->count;
  bytes_t *d = &w->c->desc;
  b_byte(w->out, '[');
  uint32_t e = i + 1;
  for (uint32_t k = 0; k < count; k++) {
    if (k) b_byte(w->out, ',');
    const node_t *en = N(w->c, e);
    const char *err;
    if (en->t == T_OBJ || en->t == T_ARR) {
      b_byte(d, en->t == T_OBJ ? 'o' : 'a');
      size_t at = d->n;
      b_u32(d, 0);
      err = en->t == T_OBJ ? write_object(w, e, depth + 1) : write_array(w, e, depth + 1);
      desc_patch(d, at);
    } else err = write_value(w, e, depth + 1);
    if (err) return err;
    e = N(w->c, e)->next;
  }
  b_byte(w->out, ']');
  return NULL;
}

/* recordCopy + JSON.stringify of one value (objects wrapped as an array of one record). */
static const char *write_value(walk_t *w, uint32_t i, int depth) {
  const node_t *n = N(w->c, i);
  char num[64];
  switch (n->t) {
    case T_NULL: b_put(w->out, "null", 4); return NULL;
    case T_TRUE: b_put(w->out, "true", 4); return NULL;
    case T_FALSE: b_put(w->out, "false", 5); return NULL;
    case T_STR:
      if ((int64_t)n->vlen > w->c->max_string_bytes) FAIL("a string longer than the limit");
      put_str(w, str_of(&w->c->tape, w->c->in, n), n->vlen, n->vin);
      return NULL;
    case T_NUM:
      if (n->small_int && !(n->vlen == 2 && w->in[n->voff] == '-' && w->in[n->voff + 1] == '0')) { b_put(w->out, w->in + n->voff, n->vlen); return NULL; }
      es_number(w->in + n->voff, n->vlen, num, 1);
      b_put(w->out, num, strlen(num));
      return NULL;
    case T_OBJ: {
      bytes_t *d = &w->c->desc;
      size_t at = d->n;
      b_u32(d, 0);
      b_byte(w->out, '[');
      const char *err = write_object(w, i, depth);
      b_byte(w->out, ']');
      desc_patch(d, at);
      return err;
    }
    default: {
      bytes_t *d = &w->c->desc;
      size_t at = d->n;
      b_u32(d, 0);
      const char *err = write_array(w, i, depth);
      desc_patch(d, at);
      return err;
    }
  }
}

/* ---- one event ----------------------------------------------------------------------------- */

static long member(ctx_t *c, uint32_t obj, const char *key, size_t klen) {
  const node_t *o = N(c, obj);
  uint32_t m = obj + 1;
  for (uint32_t k = 0; k < o->count; k++, m = N(c, m)->next) {
    const node_t *mn = N(c, m);
    if (mn->klen == klen && memcmp(key_of(&c->tape, c->in, mn), key, klen) == 0) return m;
  }
  return -1;
}

/* UTF-16 length of decoded UTF-8 (no lone surrogates: the parser refused them). */
static size_t utf16_len(const uint8_t *s, size_t n) {
  size_t u = 0;
  for (size_t i = 0; i < n; i++) {
    if ((s[i] & 0xC0) != 0x80) u++;
    if (s[i] >= 0xF0) u++;
  }
  return u;
}

/* A version-4 UUID for an event without an id: the batch's random seed plus a counter (unique within
 * the batch, and the same again when the write-ahead log replays the batch with its seed). */
static void put_uuid(ctx_t *c, bytes_t *b) {
  uint8_t r[16];
  memcpy(r, c->seed, 16);
  uint32_t k = (uint32_t)c->ids_made++;
  uint32_t tail = ((uint32_t)r[12] << 24 | (uint32_t)r[13] << 16 | (uint32_t)r[14] << 8 | r[15]) + k;
  r[12] = (uint8_t)(tail >> 24); r[13] = (uint8_t)(tail >> 16); r[14] = (uint8_t)(tail >> 8); r[15] = (uint8_t)tail;
  r[6] = (r[6] & 0x0f) | 0x40;
  r[8] = (r[8] & 0x3f) | 0x80;
  char s[38];
  size_t n = 0;
  s[n++] = '"';
  for (int i = 0; i < 16; i++) {
    if (i == 4 || i == 6 || i == 8 || i == 10) s[n++] = '-';
    s[n++] = HEX[r[i] >> 4];
    s[n++] = HEX[r[i] & 15];
  }
  s[n++] = '"';
  b_put(b, s, n);
}

/* valueAtPath / hotValueAt of hot-paths.ts: the node, -1 absent/undefined, -2 INEXACT (hot only). */
static long at_path(ctx_t *c, uint32_t ev, const path_t *p, int hot) {
  long v = ev;
  for (size_t i = 0; i < p->n; i++) {
    if (v < 0) return hot ? -2 : -1;
    if (N(c, (uint32_t)v)->t == T_ARR) {
      if (N(c, (uint32_t)v)->count != 1) return hot ? -2 : -1;
      v = v + 1;
    }
    if (N(c, (uint32_t)v)->t != T_OBJ) return hot ? -2 : -1;
    v = member(c, (uint32_t)v, p->segs[i], p->lens[i]);
  }
  if (!hot && v >= 0 && N(c, (uint32_t)v)->t == T_ARR && N(c, (uint32_t)v)->count == 1) v = v + 1;
  return v;
}

static const char *event_lookups(ctx_t *c, const uint8_t *in, uint32_t ev, double *meta) {
  char num[64];
  long pv = at_path(c, ev, &c->project, 0);
  meta[4] = -1;
  if (pv >= 0) {
    const node_t *n = N(c, (uint32_t)pv);
    long id = -1;
    if (n->t == T_STR) id = intern(&c->strs, str_of(&c->tape, c->in, n), n->vlen);
    else if (n->t == T_NUM) {
      if (!es_number(in + n->voff, n->vlen, num, 0)) FAIL("a project number that is not finite");
      id = intern(&c->strs, (const uint8_t *)num, strlen(num));
    }
    if (n->t == T_STR || n->t == T_NUM) { if (id < 0) FAIL("out of memory"); meta[4] = (double)id; }
  }
  for (size_t h = 0; h < c->nhot; h++) {
    long v = at_path(c, ev, &c->hot[h], 1);
    double kind = 0, val = 0;
    if (v == -2) kind = 1;
    else if (v >= 0) {
      const node_t *n = N(c, (uint32_t)v);
      switch (n->t) {
        case T_NULL: break;
        case T_STR: {
          long id = intern(&c->strs, str_of(&c->tape, c->in, n), n->vlen);
          if (id < 0) FAIL("out of memory");
          kind = 2; val = (double)id;
          break;
        }
        case T_NUM: kind = 3; val = token_double(in + n->voff, n->vlen); break;
        case T_TRUE: kind = 4; break;
        case T_FALSE: kind = 5; break;
        default: kind = 1;
      }
    }
    meta[6 + 2 * h] = kind;
    meta[7 + 2 * h] = val;
  }
  return NULL;
}

static const char *event_timestamp(ctx_t *c, const uint8_t *in, long ti, int64_t *ts) {
  if (ti < 0 || N(c, (uint32_t)ti)->t == T_NULL) { *ts = c->now_us; return NULL; }
  const node_t *t = N(c, (uint32_t)ti);
  if (t->t == T_NUM) { if (!parse_epoch_token(in + t->voff, t->vlen, ts)) FAIL("a timestamp number JS should judge"); }
  else if (t->t == T_STR) { if (!parse_iso_us(str_of(&c->tape, c->in, t), t->vlen, ts)) FAIL("a timestamp string JS should judge"); }
  else FAIL("a timestamp of another type");
  if (*ts > MAX_SAFE_INT || *ts < -MAX_SAFE_INT) FAIL("a timestamp past 2^53 µs");
  return NULL;
}

static int known_key(const node_t *m, ctx_t *c, int message_stands_in) {
  const uint8_t *k = key_of(&c->tape, c->in, m);
  switch (m->klen) {
    case 2: return memcmp(k, "id", 2) == 0;
    case 7: return message_stands_in && memcmp(k, "message", 7) == 0;
    case 8: return memcmp(k, "metadata", 8) == 0;
    case 9: return memcmp(k, "timestamp", 9) == 0;
    case 13: return memcmp(k, "event_message", 13) == 0;
    default: return 0;
  }
}

/* The row JSON {"id","timestamp","event_message","metadata"} then the extra columns' object. */
static const char *event_row(ctx_t *c, const uint8_t *in, uint32_t ev, long idn, long msgn, long mdn, int stands_in, int64_t ts, double *meta) {
  bytes_t *r = &c->rows;
  walk_t w = {c, in, r, c->no_rows};
  meta[1] = (double)r->n;
  b_put(r, "{\"id\":", 6);
  if (idn < 0) put_uuid(c, r);
  else put_str(&w, str_of(&c->tape, c->in, N(c, (uint32_t)idn)), N(c, (uint32_t)idn)->vlen, N(c, (uint32_t)idn)->vin);
  b_put(r, ",\"timestamp\":", 13);
  put_i64(r, ts);
  b_put(r, ",\"event_message\":", 17);
  if (msgn >= 0 && N(c, (uint32_t)msgn)->t == T_STR) put_str(&w, str_of(&c->tape, c->in, N(c, (uint32_t)msgn)), N(c, (uint32_t)msgn)->vlen, N(c, (uint32_t)msgn)->vin);
  else b_put(r, "null", 4);
  b_put(r, ",\"metadata\":[", 13);
  bytes_t *d = &c->desc;
  d->n = 0;
  if (mdn >= 0) {
    b_byte(d, 1);
    size_t at = d->n;
    b_u32(d, 0);
    const char *err = write_object(&w, (uint32_t)mdn, 2);
    if (err) return err;
    desc_patch(d, at);
  } else b_byte(d, 0);
  b_put(r, "]}", 2);
  meta[2] = (double)r->n;
  const node_t *o = N(c, ev);
  uint32_t m = ev + 1;
  int any = 0;
  for (uint32_t k = 0; k < o->count; k++, m = N(c, m)->next) {
    const node_t *mn = N(c, m);
    if (known_key(mn, c, stands_in)) continue;
    b_byte(r, any ? ',' : '{');
    any = 1;
    const char *err = write_key(&w, mn, member_code(c, in, m));
    if (err) return err;
    err = write_value(&w, m, 2);
    if (err) return err;
  }
  if (any) b_byte(r, '}');
  meta[3] = (double)r->n;
  (void)stands_in;
  return NULL;
}

/* The members id, timestamp, event_message, message and metadata of an event (-1 when absent), in one
 * pass over its keys (the parser refused duplicate keys, so each is found at most once). */
static void event_members(ctx_t *c, uint32_t ev, long *idn, long *tsn, long *emn, long *msn, long *mdn) {
  *idn = *tsn = *emn = *msn = *mdn = -1;
  uint32_t m = ev + 1;
  for (uint32_t k = 0, count = N(c, ev)->count; k < count; k++, m = N(c, m)->next) {
    const node_t *mn = N(c, m);
    const uint8_t *key = key_of(&c->tape, c->in, mn);
    switch (mn->klen) {
      case 2: if (memcmp(key, "id", 2) == 0) *idn = m; break;
      case 7: if (memcmp(key, "message", 7) == 0) *msn = m; break;
      case 8: if (memcmp(key, "metadata", 8) == 0) *mdn = m; break;
      case 9: if (memcmp(key, "timestamp", 9) == 0) *tsn = m; break;
      case 13: if (memcmp(key, "event_message", 13) == 0) *emn = m; break;
    }
  }
}

static const char *transform_event(ctx_t *c, const uint8_t *in, uint32_t ev) {
  const node_t *o = N(c, ev);
  if (o->t != T_OBJ) FAIL("an event that is not an object");
  long idn, tsn, emn, msn, mdn;
  event_members(c, ev, &idn, &tsn, &emn, &msn, &mdn);
  if (idn >= 0 && N(c, (uint32_t)idn)->t == T_NULL) idn = -1;
  if (idn >= 0) {
    const node_t *n = N(c, (uint32_t)idn);
    if (n->t != T_STR || n->vlen == 0 || utf16_len(str_of(&c->tape, c->in, n), n->vlen) > 256) FAIL("an id JS should judge");
  }
  int stands_in = emn < 0 && msn >= 0 && (N(c, (uint32_t)msn)->t == T_STR || N(c, (uint32_t)msn)->t == T_NULL);
  long msgn = emn >= 0 ? emn : stands_in ? msn : -1;
  if (msgn >= 0) {
    const node_t *n = N(c, (uint32_t)msgn);
    if (n->t != T_STR && n->t != T_NULL) FAIL("an event_message JS should judge");
    if (n->t == T_STR && (int64_t)n->vlen > c->max_string_bytes) FAIL("a message longer than the limit");
  }
  if (mdn >= 0 && N(c, (uint32_t)mdn)->t == T_NULL) mdn = -1;
  if (mdn >= 0 && N(c, (uint32_t)mdn)->t != T_OBJ) FAIL("metadata JS should judge");
  int64_t ts;
  const char *err = event_timestamp(c, in, tsn, &ts);
  if (err) return err;
  size_t stride = 6 + 2 * c->nhot;
  if (c->nmeta + stride > c->capmeta) {
    size_t cap = c->capmeta ? c->capmeta * 2 : stride * 1024;
    double *m = realloc(c->meta, cap * sizeof(double));
    if (!m) FAIL("out of memory");
    c->meta = m;
    c->capmeta = cap;
  }
  double *meta = c->meta + c->nmeta;
  meta[0] = (double)ts;
  err = event_row(c, in, ev, idn, msgn, mdn, stands_in, ts, meta);
  if (err) return err;
  if (c->no_rows) { c->no_rows_bytes += meta[3] - meta[1]; c->rows.n = 0; meta[1] = meta[2] = meta[3] = 0; }
  long did = intern(&c->descs, c->desc.p, c->desc.n);
  if (did < 0 || c->rows.oom || c->desc.oom) FAIL("out of memory");
  meta[5] = (double)did;
  err = event_lookups(c, in, ev, meta);
  if (err) return err;
  c->nmeta += stride;
  c->events++;
  return NULL;
}

/* ---- bodies -------------------------------------------------------------------------------- */

static const char *transform_json(ctx_t *c, const uint8_t *in, size_t n) {
  size_t pos = 0;
  const char *err = tape_parse(&c->tape, in, &pos, n, c->max_depth + 3);
  if (err) return err;
  if (pos != n) FAIL("invalid JSON (trailing text)");
  uint32_t root = 0, list;
  const node_t *r = N(c, root);
  if (r->t == T_ARR) list = root;
  else if (r->t == T_OBJ) {
    long b = member(c, root, "batch", 5);
    if (b < 0) return transform_event(c, in, root);
    if (N(c, (uint32_t)b)->t != T_ARR) FAIL("a batch that is not an array");
    list = (uint32_t)b;
  } else FAIL("a body that is not an object or array");
  uint32_t count = N(c, list)->count, e = list + 1;
  for (uint32_t k = 0; k < count; k++, e = N(c, e)->next) {
    err = transform_event(c, in, e);
    if (err) return err;
  }
  return NULL;
}

static int blank(const uint8_t *s, size_t n) {
  for (size_t i = 0; i < n; i++) {
    uint8_t ch = s[i];
    if (ch != ' ' && ch != '\t' && ch != '\r' && ch != '\v' && ch != '\f') return 0;
  }
  return 1;
}

static const char *transform_ndjson(ctx_t *c, const uint8_t *in, size_t n) {
  /* An empty body (its pointer may be NULL: memchr and in + st would be undefined) holds no line. */
  if (n == 0) return NULL;
  size_t st = 0;
  while (st <= n) {
    const uint8_t *nl = memchr(in + st, '\n', n - st);
    size_t end = nl ? (size_t)(nl - in) : n;
    if (!blank(in + st, end - st)) {
      tape_reset(&c->tape);
      size_t pos = st;
      const char *err = tape_parse(&c->tape, in, &pos, end, c->max_depth + 1);
      if (err) return err;
      if (pos != end) FAIL("invalid JSON (trailing text on a line)");
      err = transform_event(c, in, 0);
      if (err) return err;
    }
    if (!nl) break;
    st = end + 1;
  }
  return NULL;
}

#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23
#endif

/* Faults in the pages of a fresh row buffer with one call instead of one page fault per 4 KiB page as the rows
 * are written (Linux 5.14+; older kernels refuse it and the pages fault in as before). */
static void prefault(uint8_t *p, size_t n) {
  if (!p || n < ((size_t)256 << 10)) return;
  uintptr_t a = ((uintptr_t)p + 4095) & ~(uintptr_t)4095, e = ((uintptr_t)p + n) & ~(uintptr_t)4095;
  if (e > a) (void)madvise((void *)a, e - a, MADV_POPULATE_WRITE);
}

const char *transform_body(ctx_t *c, const uint8_t *in, size_t n, int ndjson) {
  if (n >= 3 && in[0] == 0xEF && in[1] == 0xBB && in[2] == 0xBF) { in += 3; n -= 3; }
  if (n > 0xFFFFFFF0u) FAIL("a body past 4 GiB");
  c->in = in;
  b_reserve(&c->rows, c->no_rows ? 64 * 1024 : n + n / 8 + 1024);
  /* The rows take about the body's bytes (0.97-1.0 of them for the demo and edge corpora). */
  if (!c->no_rows && !c->rows.oom && !c->rows_warm) prefault(c->rows.p, n);
  const char *err = ndjson ? transform_ndjson(c, in, n) : transform_json(c, in, n);
  if (err) return err;
  if (c->events == 0) FAIL("no events");
  if (c->strs.oom || c->descs.oom || c->rows.oom) FAIL("out of memory");
  return NULL;
}
