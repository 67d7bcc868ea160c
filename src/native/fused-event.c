/* The one-pass transform's events and bodies: an event's members read once (id, timestamp, message,
 * metadata and the extra columns written as they come), then its row, descriptor, project and hot
 * values, as transform.c's tape path gives them; any other shape or any decline goes back to it. */
#include "fused.h"

#include <stdlib.h>
#include <string.h>

/* The members transform_event looks at, as read. msg: a `message` that is a string or null (written as an
 * extra column at [r0, r1) of ex_row and [d0, d1) of ex_desc, cut out again when it stands in). */
typedef struct {
  scalar_t id, ts, em, msg;
  int has_md;
  size_t r0, r1, d0, d1;
  double counted;
} ev_t;

enum { K_OTHER, K_ID, K_TS, K_EM, K_MSG, K_MD, K_BATCH };

static int key_kind(const uint8_t *k, uint32_t n) {
  switch (n) {
    case 2: return memcmp(k, "id", 2) == 0 ? K_ID : K_OTHER;
    case 5: return memcmp(k, "batch", 5) == 0 ? K_BATCH : K_OTHER;
    case 7: return memcmp(k, "message", 7) == 0 ? K_MSG : K_OTHER;
    case 8: return memcmp(k, "metadata", 8) == 0 ? K_MD : K_OTHER;
    case 9: return memcmp(k, "timestamp", 9) == 0 ? K_TS : K_OTHER;
    case 13: return memcmp(k, "event_message", 13) == 0 ? K_EM : K_OTHER;
    default: return K_OTHER;
  }
}

/* A string, null or (allow_num) number member value, read into r; anything else is not taken here. */
static const char *fz_scalar(fz_t *f, scalar_t *r, int allow_num) {
  parser_t *s = &f->s;
  skip_ws(s);
  if (s->p >= s->end) return FB;
  uint8_t ch = s->in[s->p];
  r->has = 1;
  if (ch == '"') {
    s->p++;
    r->kind = T_STR;
    return parse_string(s, &r->off, &r->len, &r->own);
  }
  if (ch == 'n') { r->kind = T_NULL; return lit(s, "null", 4) ? NULL : FB; }
  if (!allow_num || (ch != '-' && (ch < '0' || ch > '9'))) return FB;
  node_t n;
  const char *err = parse_number(s, &n);
  r->kind = T_NUM; r->own = 1; r->off = n.voff; r->len = n.vlen;
  return err;
}

/* `message` as a string or null: written as an extra column (limits judged at the end), kept in e->msg. */
static const char *fz_message(fz_t *f, ev_t *e, uint32_t koff, uint32_t klen, uint8_t kin, const act_t *acts, int na) {
  e->r0 = f->ex_row.n; e->d0 = f->ex_desc.n; e->counted = f->c->no_rows_bytes;
  const char *err = fz_scalar(f, &e->msg, 0);
  if (err) return err;
  const uint8_t *k = fz_bytes(f, kin, koff);
  b_byte(&f->ex_row, ',');
  fz_str(f, &f->ex_row, k, klen, kin);
  b_byte(&f->ex_row, ':');
  if (e->msg.kind == T_STR) fz_str(f, &f->ex_row, fz_bytes(f, e->msg.own, e->msg.off), e->msg.len, e->msg.own);
  else b_put(&f->ex_row, "null", 4);
  b_byte(&f->ex_desc, e->msg.kind == T_STR ? 1 : 0);
  b_u32(&f->ex_desc, klen);
  b_put(&f->ex_desc, k, klen);
  e->r1 = f->ex_row.n; e->d1 = f->ex_desc.n; e->counted = f->c->no_rows_bytes - e->counted;
  acts_scalar(f, acts, na, e->msg.kind, e->msg.own, e->msg.off, e->msg.len);
  return NULL;
}

static const char *fz_metadata(fz_t *f, ev_t *e, const act_t *acts, int na) {
  parser_t *s = &f->s;
  skip_ws(s);
  if (s->p < s->end && s->in[s->p] == 'n') {
    if (!lit(s, "null", 4)) return FB;
    acts_scalar(f, acts, na, T_NULL, 0, 0, 0);
    return NULL;
  }
  if (s->p >= s->end || s->in[s->p] != '{' || 2 > f->c->max_depth) return FB;
  s->p++;
  e->has_md = 1;
  f->row = &f->md_row;
  f->desc = &f->md_desc;
  return fz_object(f, 2, acts, na);
}

/* One member of the event (its key read): a known one kept or written where it goes, else an extra column. */
static const char *fz_event_member(fz_t *f, ev_t *e, uint32_t koff, uint32_t klen, uint8_t kin, const act_t *follow, int nf) {
  const uint8_t *k = fz_bytes(f, kin, koff);
  act_t child[MAX_CAPS];
  int nc = nf ? acts_member(f, follow, nf, k, klen, child) : 0;
  if (f->pd_off + 2 > f->parse_limit) return FB;
  const char *err;
  int kk = key_kind(k, klen);
  switch (kk) {
    case K_ID: err = fz_scalar(f, &e->id, 0); break;
    case K_TS: err = fz_scalar(f, &e->ts, 1); break;
    case K_EM: err = fz_scalar(f, &e->em, 0); break;
    case K_MD: return fz_metadata(f, e, child, nc);
    case K_BATCH: if (f->root_single) return FB; /* fall through */
    default: {
      skip_ws(&f->s);
      if (kk == K_MSG && f->s.p < f->s.end && (f->s.in[f->s.p] == '"' || f->s.in[f->s.p] == 'n')) return fz_message(f, e, koff, klen, kin, child, nc);
      f->row = &f->ex_row;
      f->desc = &f->ex_desc;
      b_byte(f->row, ',');
      return fz_member(f, koff, klen, kin, 2, follow, nf);
    }
  }
  if (err) return err;
  scalar_t *r = kk == K_ID ? &e->id : kk == K_TS ? &e->ts : &e->em;
  acts_scalar(f, child, nc, r->kind, r->own, r->off, r->len);
  return NULL;
}

/* The checks of transform_event on what was read; cuts a stand-in `message` out of the extra columns. */
static const char *fz_judge(fz_t *f, ev_t *e, int64_t *ts) {
  ctx_t *c = f->c;
  if (e->id.has && e->id.kind == T_NULL) e->id.has = 0;
  if (e->id.has && (e->id.kind != T_STR || e->id.len == 0 || utf16_len(fz_bytes(f, e->id.own, e->id.off), e->id.len) > 256)) return FB;
  int stands_in = !e->em.has && e->msg.has;
  const scalar_t *m = e->em.has ? &e->em : stands_in ? &e->msg : NULL;
  if (m && m->kind == T_STR && (int64_t)m->len > c->max_string_bytes) return FB;
  if (e->msg.has && !stands_in && (7 > c->max_string_bytes || (e->msg.kind == T_STR && (int64_t)e->msg.len > c->max_string_bytes))) return FB;
  if (stands_in) {
    memmove(f->ex_row.p + e->r0, f->ex_row.p + e->r1, f->ex_row.n - e->r1);
    f->ex_row.n -= e->r1 - e->r0;
    memmove(f->ex_desc.p + e->d0, f->ex_desc.p + e->d1, f->ex_desc.n - e->d1);
    f->ex_desc.n -= e->d1 - e->d0;
    c->no_rows_bytes -= e->counted;
    e->em = e->msg;
    e->msg.has = 0;
  }
  if (!e->ts.has || e->ts.kind == T_NULL) *ts = c->now_us;
  else if (e->ts.kind == T_NUM) { if (!parse_epoch_token(f->s.in + e->ts.off, e->ts.len, ts)) return FB; }
  else if (!parse_iso_us(fz_bytes(f, e->ts.own, e->ts.off), e->ts.len, ts)) return FB;
  if (*ts > MAX_SAFE_INT || *ts < -MAX_SAFE_INT) return FB;
  return NULL;
}

/* The row {"id","timestamp","event_message","metadata"} then the extra columns' object, and the descriptor. */
static void fz_row(fz_t *f, const ev_t *e, int64_t ts, double *meta) {
  ctx_t *c = f->c;
  bytes_t *r = &c->rows;
  meta[1] = (double)r->n;
  b_put(r, "{\"id\":", 6);
  if (e->id.has) fz_str(f, r, fz_bytes(f, e->id.own, e->id.off), e->id.len, e->id.own);
  else put_uuid(c, r);
  b_put(r, ",\"timestamp\":", 13);
  put_i64(r, ts);
  b_put(r, ",\"event_message\":", 17);
  if (e->em.has && e->em.kind == T_STR) fz_str(f, r, fz_bytes(f, e->em.own, e->em.off), e->em.len, e->em.own);
  else b_put(r, "null", 4);
  b_put(r, ",\"metadata\":[", 13);
  if (e->has_md) b_put(r, f->md_row.p, f->md_row.n);
  b_put(r, "]}", 2);
  meta[2] = (double)r->n;
  if (f->ex_row.n) {
    b_byte(r, '{');
    b_put(r, f->ex_row.p + 1, f->ex_row.n - 1);
    b_byte(r, '}');
  }
  meta[3] = (double)r->n;
  bytes_t *d = &c->desc;
  d->n = 0;
  b_byte(d, e->has_md ? 1 : 0);
  if (e->has_md) { b_u32(d, (uint32_t)f->md_desc.n); b_put(d, f->md_desc.p, f->md_desc.n); }
  b_put(d, f->ex_desc.p, f->ex_desc.n);
}

/* event_lookups of transform.c from the captures: the project's string id, then each hot path's kind and value. */
static const char *fz_lookups(fz_t *f, double *meta) {
  ctx_t *c = f->c;
  const cap_t *p = &f->caps[0];
  meta[4] = -1;
  if (p->state == CAP_VALUE) {
    char num[64];
    long id;
    if (p->kind == T_STR) id = intern(&c->strs, fz_bytes(f, p->own, p->off), p->len);
    else {
      if (!es_number(f->s.in + p->off, p->len, num, 0)) return FB;
      id = intern(&c->strs, (const uint8_t *)num, strlen(num));
    }
    if (id < 0) return FB;
    meta[4] = (double)id;
  }
  for (size_t h = 0; h + 1 < f->ncaps; h++) {
    const cap_t *k = &f->caps[h + 1];
    double kind = 0, val = 0;
    if (k->state == CAP_INEXACT) kind = 1;
    else if (k->state == CAP_VALUE) {
      switch (k->kind) {
        case T_STR: {
          long id = intern(&c->strs, fz_bytes(f, k->own, k->off), k->len);
          if (id < 0) return FB;
          kind = 2; val = (double)id;
          break;
        }
        case T_NUM: kind = 3; val = token_double(f->s.in + k->off, k->len); break;
        case T_TRUE: kind = 4; break;
        case T_FALSE: kind = 5; break;
        default: break;
      }
    }
    meta[6 + 2 * h] = kind;
    meta[7 + 2 * h] = val;
  }
  return NULL;
}

/* The event's members after its '{' (the event at parse depth epd). */
static const char *fz_members(fz_t *f, ev_t *e) {
  parser_t *s = &f->s;
  act_t root[MAX_CAPS], follow[MAX_CAPS];
  for (size_t i = 0; i < f->ncaps; i++) root[i] = (act_t){(uint8_t)i, 0, 0};
  int nf = acts_object(f, root, (int)f->ncaps, follow);
  size_t base = f->nkeys;
  uint64_t seen[4] = {0, 0, 0, 0};
  uint32_t count = 0;
  skip_ws(s);
  if (s->p < s->end && s->in[s->p] == '}') { s->p++; return NULL; }
  for (;;) {
    uint32_t koff, klen;
    uint8_t kin;
    const char *err = fz_read_key(f, base, count++, seen, &koff, &klen, &kin);
    if (!err) err = fz_event_member(f, e, koff, klen, kin, follow, nf);
    if (err) return err;
    skip_ws(s);
    if (s->p < s->end && s->in[s->p] == ',') { s->p++; continue; }
    if (s->p < s->end && s->in[s->p] == '}') { s->p++; break; }
    return FB;
  }
  f->nkeys = base;
  return NULL;
}

/* One event at s.p (its '{'), at parse depth epd: read, judged, written. */
static const char *fz_event(fz_t *f, int epd) {
  ctx_t *c = f->c;
  parser_t *s = &f->s;
  if (epd > f->parse_limit || s->p >= s->end || s->in[s->p] != '{') return FB;
  s->p++;
  s->t->arena.n = 0;
  f->pd_off = epd - 1;
  f->md_row.n = f->md_desc.n = f->ex_row.n = f->ex_desc.n = 0;
  ev_t e;
  memset(&e, 0, sizeof e);
  int64_t ts;
  const char *err = fz_members(f, &e);
  if (!err) err = fz_judge(f, &e, &ts);
  if (err) return err;
  size_t stride = 6 + 2 * c->nhot;
  if (c->nmeta + stride > c->capmeta) {
    size_t cap = c->capmeta ? c->capmeta * 2 : stride * 1024;
    double *m = realloc(c->meta, cap * sizeof(double));
    if (!m) return FB;
    c->meta = m;
    c->capmeta = cap;
  }
  double *meta = c->meta + c->nmeta;
  meta[0] = (double)ts;
  fz_row(f, &e, ts, meta);
  if (c->no_rows) { c->no_rows_bytes += meta[3] - meta[1]; c->rows.n = 0; meta[1] = meta[2] = meta[3] = 0; }
  long did = intern(&c->descs, c->desc.p, c->desc.n);
  if (did < 0 || c->rows.oom || c->desc.oom || f->md_row.oom || f->md_desc.oom || f->ex_row.oom || f->ex_desc.oom || s->t->arena.oom) return FB;
  meta[5] = (double)did;
  err = fz_lookups(f, meta);
  if (err) return err;
  c->nmeta += stride;
  c->events++;
  return NULL;
}

/* Events of a list after its '[' (the list at parse depth epd - 1), up to and past its ']'. */
static const char *fz_list(fz_t *f, int epd) {
  parser_t *s = &f->s;
  skip_ws(s);
  if (s->p < s->end && s->in[s->p] == ']') { s->p++; return NULL; }
  for (;;) {
    skip_ws(s);
    const char *err = fz_event(f, epd);
    if (err) return err;
    skip_ws(s);
    if (s->p < s->end && s->in[s->p] == ',') { s->p++; continue; }
    if (s->p < s->end && s->in[s->p] == ']') { s->p++; return NULL; }
    return FB;
  }
}

/* A JSON body: a bare array of events, {"batch":[...]} with batch its only key, or one event. */
static const char *fz_json(fz_t *f) {
  parser_t *s = &f->s;
  f->parse_limit = f->c->max_depth + 3;
  skip_ws(s);
  if (s->p >= s->end) return FB;
  const char *err;
  if (s->in[s->p] == '[') { s->p++; err = fz_list(f, 2); }
  else if (s->in[s->p] != '{') return FB;
  else {
    size_t at = s->p;
    s->p++;
    skip_ws(s);
    uint32_t off = 0, len = 0;
    uint8_t own = 1;
    int batch = s->p < s->end && s->in[s->p] == '"' && (s->p++, parse_string(s, &off, &len, &own) == NULL) && len == 5 && memcmp(fz_bytes(f, own, off), "batch", 5) == 0;
    if (batch) {
      skip_ws(s);
      if (s->p >= s->end || s->in[s->p] != ':') return FB;
      s->p++;
      skip_ws(s);
      if (s->p >= s->end || s->in[s->p] != '[' || 2 > f->parse_limit) return FB;
      s->p++;
      err = fz_list(f, 3);
      skip_ws(s);
      if (!err && (s->p >= s->end || s->in[s->p++] != '}')) err = FB;
    } else {
      s->p = at;
      f->root_single = 1;
      err = fz_event(f, 1);
    }
  }
  if (err) return err;
  skip_ws(s);
  return s->p == s->end ? NULL : FB;
}

static int blank(const uint8_t *s, size_t n) {
  for (size_t i = 0; i < n; i++) {
    uint8_t ch = s[i];
    if (ch != ' ' && ch != '\t' && ch != '\r' && ch != '\v' && ch != '\f') return 0;
  }
  return 1;
}

static const char *fz_ndjson(fz_t *f, const uint8_t *in, size_t n) {
  parser_t *s = &f->s;
  f->parse_limit = f->c->max_depth + 1;
  size_t st = 0;
  while (st <= n) {
    const uint8_t *nl = memchr(in + st, '\n', n - st);
    size_t end = nl ? (size_t)(nl - in) : n;
    if (!blank(in + st, end - st)) {
      s->p = st;
      s->end = end;
      skip_ws(s);
      const char *err = fz_event(f, 1);
      if (err) return err;
      skip_ws(s);
      if (s->p != end) return FB;
    }
    if (!nl) break;
    st = end + 1;
  }
  return NULL;
}

const char *fused_body(ctx_t *c, const uint8_t *in, size_t n, int ndjson) {
  if (c->nhot + 1 > MAX_CAPS) return FB;
  fz_t f;
  memset(&f, 0, sizeof f);
  f.c = c;
  f.s = (parser_t){&c->tape, in, 0, n, 0};
  f.skip = c->no_rows;
  f.ncaps = 1 + c->nhot;
  f.caps[0] = (cap_t){.path = &c->project};
  for (size_t h = 0; h < c->nhot; h++) f.caps[h + 1] = (cap_t){.path = &c->hot[h], .hot = 1};
  for (size_t i = 0; i < f.ncaps; i++) if (f.caps[i].path->n > 250) return FB;
  const char *err = ndjson ? fz_ndjson(&f, in, n) : fz_json(&f);
  if (!err && c->events == 0) err = FB;
  b_free(&f.md_row); b_free(&f.md_desc); b_free(&f.ex_row); b_free(&f.ex_desc);
  free(f.keys);
  return err;
}
