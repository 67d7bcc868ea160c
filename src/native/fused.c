/* The one-pass transform's values: each written (row bytes, descriptor) while it is parsed, with no tape
 * and no second walk, the project and hot values captured on the way (see fused.h, fused-event.c). */
#include "fused.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static void patch_len(bytes_t *d, size_t at) {
  uint32_t len = (uint32_t)(d->n - at - 4);
  if (!d->oom) memcpy(d->p + at, &len, 4);
}

/* Captures reaching a scalar: a leaf takes it (projects only strings and numbers), a path going deeper misses. */
void acts_scalar(fz_t *f, const act_t *a, int na, uint8_t kind, uint8_t own, uint32_t off, uint32_t len) {
  for (int i = 0; i < na; i++) {
    cap_t *k = &f->caps[a[i].cap];
    if (a[i].d < k->path->n || (!k->hot && kind != T_STR && kind != T_NUM)) { k->state = miss_state(k); continue; }
    k->state = CAP_VALUE;
    k->kind = kind; k->own = own; k->off = off; k->len = len;
  }
}

/* Captures reaching an object: a leaf misses; else the default for a missing key (null at the last
 * segment for hot paths), and the ones to follow into the member named by their next segment (dst). */
int acts_object(fz_t *f, const act_t *a, int na, act_t *dst) {
  int nd = 0;
  for (int i = 0; i < na; i++) {
    cap_t *k = &f->caps[a[i].cap];
    if (a[i].d == k->path->n) { k->state = miss_state(k); continue; }
    if (k->hot && a[i].d + 1u == k->path->n) { k->state = CAP_VALUE; k->kind = T_NULL; }
    else k->state = miss_state(k);
    dst[nd++] = a[i];
  }
  return nd;
}

int acts_member(const fz_t *f, const act_t *a, int na, const uint8_t *k, uint32_t klen, act_t *dst) {
  int nc = 0;
  for (int i = 0; i < na; i++) {
    const path_t *p = f->caps[a[i].cap].path;
    if (p->lens[a[i].d] == klen && memcmp(p->segs[a[i].d], k, klen) == 0) dst[nc++] = (act_t){a[i].cap, (uint8_t)(a[i].d + 1), 0};
  }
  return nc;
}

/* The duplicate-key, array-index-key and key-count checks of tape.c's parse_object; pushes the key. */
static const char *fz_key(fz_t *f, size_t base, uint32_t count, uint64_t *seen, uint32_t koff, uint32_t klen, uint8_t kin) {
  const uint8_t *k = fz_bytes(f, kin, koff);
  if (is_index_key(k, klen) || count == MAX_KEYS) return FB;
  uint64_t fp = key_fp(k, klen);
  unsigned bit = (unsigned)(fp >> 20) & 255;
  if ((seen[bit >> 6] >> (bit & 63)) & 1) {
    for (size_t i = base; i < f->nkeys; i++) {
      const fkey_t *e = &f->keys[i];
      if (e->fp == fp && e->len == klen && memcmp(fz_bytes(f, e->own, e->off), k, klen) == 0) return FB;
    }
  }
  seen[bit >> 6] |= 1ull << (bit & 63);
  if (f->nkeys == f->capkeys) {
    size_t cap = f->capkeys ? f->capkeys * 2 : 256;
    fkey_t *nk = realloc(f->keys, cap * sizeof(fkey_t));
    if (!nk) return FB;
    f->keys = nk;
    f->capkeys = cap;
  }
  f->keys[f->nkeys++] = (fkey_t){fp, koff, klen, kin};
  return NULL;
}

/* An object key at s.p (its opening quote expected), checked and pushed, then its ':'. */
const char *fz_read_key(fz_t *f, size_t base, uint32_t count, uint64_t *seen, uint32_t *koff, uint32_t *klen, uint8_t *kin) {
  parser_t *s = &f->s;
  skip_ws(s);
  if (s->p >= s->end || s->in[s->p] != '"') return FB;
  s->p++;
  const char *err = parse_string(s, koff, klen, kin);
  if (!err) err = fz_key(f, base, count, seen, *koff, *klen, *kin);
  if (err) return err;
  skip_ws(s);
  if (s->p >= s->end || s->in[s->p] != ':') return FB;
  s->p++;
  return NULL;
}

/* A member's key, its descriptor entry (type code patched after) and value (written at depth wd). */
const char *fz_member(fz_t *f, uint32_t koff, uint32_t klen, uint8_t kin, int wd, const act_t *acts, int na) {
  if ((int64_t)klen > f->c->max_string_bytes) return FB;
  const uint8_t *k = fz_bytes(f, kin, koff);
  fz_str(f, f->row, k, klen, kin);
  b_byte(f->row, ':');
  bytes_t *d = f->desc;
  size_t code_at = d->n;
  b_reserve(d, 5 + (size_t)klen);
  if (d->oom) return FB;
  uint8_t *o = d->p + d->n;
  o[0] = 0;
  o[1] = (uint8_t)klen; o[2] = (uint8_t)(klen >> 8); o[3] = (uint8_t)(klen >> 16); o[4] = (uint8_t)(klen >> 24);
  copy_bytes(o + 5, k, klen);
  d->n += 5 + (size_t)klen;
  act_t child[MAX_CAPS];
  int nc = na ? acts_member(f, acts, na, k, klen, child) : 0;
  int tc;
  uint8_t vk;
  const char *err = fz_value(f, wd, 0, child, nc, &tc, &vk);
  if (err) return err;
  d->p[code_at] = (uint8_t)(tc | (vk == T_OBJ ? 0x40 : vk == T_ARR ? 0x80 : 0));
  return NULL;
}

/* An object's members after its '{' (copyObject, record-shaped; the object is at depth wd). */
const char *fz_object(fz_t *f, int wd, const act_t *acts, int na) {
  parser_t *s = &f->s;
  act_t follow[MAX_CAPS];
  int nf = na ? acts_object(f, acts, na, follow) : 0;
  size_t base = f->nkeys;
  uint64_t seen[4] = {0, 0, 0, 0};
  uint32_t count = 0;
  b_byte(f->row, '{');
  skip_ws(s);
  if (s->p < s->end && s->in[s->p] == '}') { s->p++; goto done; }
  for (;;) {
    uint32_t koff, klen;
    uint8_t kin;
    const char *err = fz_read_key(f, base, count, seen, &koff, &klen, &kin);
    if (err) return err;
    if (count++) b_byte(f->row, ',');
    err = fz_member(f, koff, klen, kin, wd + 1, follow, nf);
    if (err) return err;
    skip_ws(s);
    if (s->p < s->end && s->in[s->p] == ',') { s->p++; continue; }
    if (s->p < s->end && s->in[s->p] == '}') { s->p++; break; }
    return FB;
  }
done:
  b_byte(f->row, '}');
  f->nkeys = base;
  return NULL;
}

/* An array's elements after its '[' (at depth wd); *tc = typeOf's code of its first typed element. */
static const char *fz_array(fz_t *f, int wd, const act_t *acts, int na, int *tc) {
  parser_t *s = &f->s;
  act_t first[MAX_CAPS];
  int n0 = 0;
  for (int i = 0; i < na; i++) {
    cap_t *k = &f->caps[acts[i].cap];
    int leaf = acts[i].d == k->path->n;
    k->state = miss_state(k);
    if (!acts[i].u && !(leaf && k->hot)) first[n0++] = (act_t){acts[i].cap, acts[i].d, 1};
  }
  uint32_t count = 0;
  *tc = 0;
  b_byte(f->row, '[');
  skip_ws(s);
  if (s->p < s->end && s->in[s->p] == ']') { s->p++; goto done; }
  for (;;) {
    if (count) b_byte(f->row, ',');
    int etc;
    uint8_t ek;
    const char *err = fz_value(f, wd + 1, 1, first, count ? 0 : n0, &etc, &ek);
    if (err) return err;
    if (*tc == 0 && etc != 0) *tc = ek == T_ARR ? 11 : etc + 5;
    count++;
    skip_ws(s);
    if (s->p < s->end && s->in[s->p] == ',') { s->p++; continue; }
    if (s->p < s->end && s->in[s->p] == ']') { s->p++; break; }
    return FB;
  }
done:
  b_byte(f->row, ']');
  if (count != 1) for (int i = 0; i < n0; i++) f->caps[first[i].cap].state = miss_state(&f->caps[first[i].cap]);
  return NULL;
}

static const char *fz_container(fz_t *f, int wd, int in_array, const act_t *acts, int na, int *tc, uint8_t *kind) {
  parser_t *s = &f->s;
  int obj = s->in[s->p] == '{';
  if (wd > f->c->max_depth) return FB;
  s->p++;
  if (in_array) b_byte(f->desc, obj ? 'o' : 'a');
  else if (obj) b_byte(f->row, '[');
  size_t at = f->desc->n;
  b_u32(f->desc, 0);
  const char *err = obj ? fz_object(f, wd, acts, na) : fz_array(f, wd, acts, na, tc);
  if (err) return err;
  if (obj && !in_array) b_byte(f->row, ']');
  patch_len(f->desc, at);
  if (obj) *tc = 5;
  *kind = obj ? T_OBJ : T_ARR;
  return NULL;
}

static const char *fz_number(fz_t *f, const act_t *acts, int na, int *tc) {
  parser_t *s = &f->s;
  node_t n;
  const char *err = parse_number(s, &n);
  if (err) return err;
  const uint8_t *tok = s->in + n.voff;
  if (n.small_int && !(n.vlen == 2 && tok[0] == '-' && tok[1] == '0')) b_put(f->row, tok, n.vlen);
  else {
    char num[64];
    es_number(tok, n.vlen, num, 1);
    b_put(f->row, num, strlen(num));
  }
  if (n.small_int) *tc = 2;
  else {
    double v = token_double(tok, n.vlen);
    *tc = isfinite(v) && floor(v) == v ? 2 : 3;
  }
  if (na) acts_scalar(f, acts, na, T_NUM, 1, n.voff, n.vlen);
  return NULL;
}

/* recordCopy + JSON.stringify of one value at depth wd (objects wrapped as an array of one record unless
 * an array's element), its descriptor content; *tc its typeOf code and *kind its JSON type. */
const char *fz_value(fz_t *f, int wd, int in_array, const act_t *acts, int na, int *tc, uint8_t *kind) {
  parser_t *s = &f->s;
  skip_ws(s);
  if (s->p >= s->end || wd + f->pd_off > f->parse_limit) return FB;
  uint8_t ch = s->in[s->p];
  switch (ch) {
    case '{': case '[': return fz_container(f, wd, in_array, acts, na, tc, kind);
    case '"': {
      s->p++;
      uint32_t off, len;
      uint8_t own;
      const char *err = parse_string(s, &off, &len, &own);
      if (err) return err;
      if ((int64_t)len > f->c->max_string_bytes) return FB;
      fz_str(f, f->row, fz_bytes(f, own, off), len, own);
      if (na) acts_scalar(f, acts, na, T_STR, own, off, len);
      *tc = 1; *kind = T_STR;
      return NULL;
    }
    case 't': case 'f': case 'n': {
      int t = ch == 't', n = ch == 'n';
      const char *w = t ? "true" : n ? "null" : "false";
      size_t wl = t || n ? 4 : 5;
      if (!lit(s, w, wl)) return FB;
      b_put(f->row, w, wl);
      *kind = t ? T_TRUE : n ? T_NULL : T_FALSE;
      *tc = n ? 0 : 4;
      if (na) acts_scalar(f, acts, na, *kind, 0, 0, 0);
      return NULL;
    }
    default:
      if (ch != '-' && (ch < '0' || ch > '9')) return FB;
      *kind = T_NUM;
      return fz_number(f, acts, na, tc);
  }
}

