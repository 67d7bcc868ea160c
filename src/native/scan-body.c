/* The noRows scan of an NDJSON body (scan.h): each line's event scanned in one pass (scan-value.c) into
 * the outputs transform_event gives with no_rows — timestamp, project id, descriptor id, counted row
 * bytes; a line the scan BAILs on goes through transform_body, which judges it exactly. */
#include "scan.h"
#include "scan-value.h"

#include <stdlib.h>
#include <string.h>

/* What one event's top-level members give. Kinds: 0 absent (or null); ts 1 number, 2 string; msg 1 null,
 * 2 string; pj (the project member) 1 string, 2 number, 0 anything else. */
typedef struct {
  int id, ts, msg, md, pj;
  uint32_t id_off, id_len, ts_off, ts_len, msg_len, pj_off, pj_len;
  uint64_t md_json, ex_json;
  uint32_t nex;
} event_t;

enum { K_EXTRA, K_ID, K_TS, K_EM, K_MSG, K_MD };

static int key_kind(const uint8_t *k, uint32_t n) {
  switch (n) {
    case 2: return memcmp(k, "id", 2) == 0 ? K_ID : K_EXTRA;
    case 7: return memcmp(k, "message", 7) == 0 ? K_MSG : K_EXTRA;
    case 8: return memcmp(k, "metadata", 8) == 0 ? K_MD : K_EXTRA;
    case 9: return memcmp(k, "timestamp", 9) == 0 ? K_TS : K_EXTRA;
    case 13: return memcmp(k, "event_message", 13) == 0 ? K_EM : K_EXTRA;
    default: return K_EXTRA;
  }
}

int scan_fits(const ctx_t *c) {
  if (!c->no_rows || c->nhot != 0 || c->project.n != 1) return 0;
  return key_kind((const uint8_t *)c->project.segs[0], (uint32_t)c->project.lens[0]) == K_EXTRA;
}

/* A string (kind 2) or null (kind nullk) at s->p; anything else BAILs. */
static int known_scalar(scan_t *s, int nullk, int *kind, uint32_t *off, uint32_t *len) {
  skip_ws(s);
  if (s->p < s->end && s->in[s->p] == '"') { s->p++; *kind = 2; return scan_string(s, off, len); }
  *kind = nullk;
  return scan_lit(s, "null", 4) ? 0 : BAIL;
}

static int timestamp_member(scan_t *s, event_t *e) {
  skip_ws(s);
  uint8_t c = s->p < s->end ? s->in[s->p] : 0;
  if (c != '-' && (c < '0' || c > '9')) return known_scalar(s, 0, &e->ts, &e->ts_off, &e->ts_len);
  uint64_t json;
  int code;
  e->ts = 1;
  e->ts_off = (uint32_t)s->p;
  if (scan_number(s, &json, &code)) return BAIL;
  e->ts_len = (uint32_t)(s->p - e->ts_off);
  return 0;
}

/* An extra column: its descriptor entry and row JSON; the project's value noted when it is this member. */
static int extra_member(scan_t *s, event_t *e, uint32_t koff, uint32_t klen) {
  const path_t *pj = &s->c->project;
  int is_pj = klen == pj->lens[0] && memcmp(s->in + koff, pj->segs[0], klen) == 0;
  uint64_t json;
  skip_ws(s);
  size_t v = s->p;
  if (scan_member(s, koff, klen, 1, &json)) return BAIL;
  e->ex_json += json + (e->nex ? 1 : 0);
  e->nex++;
  if (!is_pj) return 0;
  uint8_t c = s->in[v];
  if (c == '[') return BAIL; /* a one-element array stands for its element: the tape path unwraps it */
  if (c == '"') { e->pj = 1; e->pj_off = (uint32_t)v + 1; e->pj_len = (uint32_t)(s->p - v - 2); }
  else if (c == '-' || (c >= '0' && c <= '9')) { e->pj = 2; e->pj_off = (uint32_t)v; e->pj_len = (uint32_t)(s->p - v); }
  return 0;
}

static int event_member(scan_t *s, event_t *e, uint32_t koff, uint32_t klen) {
  uint32_t unused;
  switch (key_kind(s->in + koff, klen)) {
    case K_ID: return known_scalar(s, 0, &e->id, &e->id_off, &e->id_len);
    case K_TS: return timestamp_member(s, e);
    case K_EM: return known_scalar(s, 1, &e->msg, &unused, &e->msg_len);
    case K_MSG: return BAIL; /* it may stand in for event_message: the tape path decides */
    case K_MD:
      skip_ws(s);
      if (s->p < s->end && s->in[s->p] == '{') {
        s->d = &s->md;
        int r = scan_object(s, 2, &e->md_json);
        s->d = &s->ex;
        e->md = 1;
        return r;
      }
      return scan_lit(s, "null", 4) ? 0 : BAIL;
    default: return extra_member(s, e, koff, klen);
  }
}

/* One line's event, s->p at its start; BAIL unless the line is exactly one object this scan can judge. */
static int scan_event(scan_t *s, event_t *e) {
  memset(e, 0, sizeof *e);
  s->nk = 0; s->md.n = 0; s->ex.n = 0; s->d = &s->ex;
  skip_ws(s);
  if (s->p >= s->end || s->in[s->p] != '{') return BAIL;
  s->p++;
  skip_ws(s);
  if (s->p < s->end && s->in[s->p] == '}') s->p++;
  else for (uint64_t seen[4] = {0, 0, 0, 0};;) {
    uint32_t koff, klen;
    if (take_key(s, 0, seen, &koff, &klen) || event_member(s, e, koff, klen)) return BAIL;
    skip_ws(s);
    if (s->p < s->end && s->in[s->p] == ',') { s->p++; continue; }
    if (s->p < s->end && s->in[s->p] == '}') { s->p++; break; }
    return BAIL;
  }
  skip_ws(s);
  if (s->p != s->end || s->md.oom || s->ex.oom) return BAIL;
  if (e->msg == 2 && (int64_t)e->msg_len > s->c->max_string_bytes) return BAIL;
  return 0;
}

static size_t i64_digits(int64_t v) {
  uint64_t u = v < 0 ? 0 - (uint64_t)v : (uint64_t)v;
  size_t k = v < 0 ? 1 : 0;
  do { k++; u /= 10; } while (u);
  return k;
}

/* UTF-16 length of valid UTF-8. */
static size_t utf16_len(const uint8_t *p, size_t n) {
  size_t u = 0;
  for (size_t i = 0; i < n; i++) {
    if ((p[i] & 0xC0) != 0x80) u++;
    if (p[i] >= 0xF0) u++;
  }
  return u;
}

/* The row's length: {"id":…,"timestamp":…,"event_message":…,"metadata":[…]} then {extras} when any. */
static double row_bytes(const event_t *e, int64_t ts) {
  uint64_t n = 51 + (e->id ? (uint64_t)e->id_len + 2 : 38) + i64_digits(ts) + (e->msg == 2 ? (uint64_t)e->msg_len + 2 : 4);
  return (double)(n + (e->md ? e->md_json : 0) + (e->nex ? e->ex_json + 2 : 0));
}

/* emit_event's answer for an unchecked scan of an event of a shape new to the batch: scan it again, checked. */
#define RESCAN 2

/* Whether the batch's descriptor `id` is this event's, [md flag][md][ex], compared where the parts lie. */
static int desc_is(const intern_t *t, long id, const scan_t *s, int md) {
  uint32_t st = id ? t->ends[id - 1] : 0;
  size_t mn = md ? s->md.n : 0;
  if (t->ends[id] - st != 1 + mn + s->ex.n) return 0;
  const uint8_t *p = t->data.p + st;
  return p[0] == (md ? 1 : 0) && (mn == 0 || memcmp(p + 1, s->md.p, mn) == 0) &&
    (s->ex.n == 0 || memcmp(p + 1 + mn, s->ex.p, s->ex.n) == 0);
}

/* The event's descriptor id: one of the few found last (same bytes, same id; nothing built), else from the
 * batch's table, its bytes built in c->desc — a checked scan's new descriptor is interned, an unchecked one's
 * is not (-1: nothing added). */
static long desc_id(scan_t *s, const event_t *e) {
  ctx_t *c = s->c;
  for (unsigned i = 0; i < 4 && i < s->nrecent; i++) if (desc_is(&c->descs, s->recent[i], s, e->md)) return s->recent[i];
  bytes_t *d = &c->desc;
  d->n = 0;
  b_byte(d, e->md ? 1 : 0);
  if (e->md) b_put(d, s->md.p, s->md.n);
  b_put(d, s->ex.p, s->ex.n);
  if (d->oom) return -1;
  long id = s->checked ? intern(&c->descs, d->p, d->n) : intern_find(&c->descs, d->p, d->n);
  if (id >= 0) s->recent[s->nrecent++ & 3] = id;
  return id;
}

/* transform_event's no_rows outputs of a scanned event; BAIL (nothing counted) when a check needs the tape path,
 * RESCAN (nothing counted) when an unchecked scan found a descriptor the batch does not hold. */
static int emit_event(scan_t *s, const event_t *e) {
  ctx_t *c = s->c;
  const uint8_t *in = s->in;
  if (e->id && (e->id_len == 0 || utf16_len(in + e->id_off, e->id_len) > 256)) return BAIL;
  int64_t ts = c->now_us;
  if (e->ts == 1 && !parse_epoch_token(in + e->ts_off, e->ts_len, &ts)) return BAIL;
  if (e->ts == 2 && !parse_iso_us(in + e->ts_off, e->ts_len, &ts)) return BAIL;
  if (ts > MAX_SAFE_INT || ts < -MAX_SAFE_INT) return BAIL;
  char num[64];
  const uint8_t *pj = in + e->pj_off;
  size_t pjn = e->pj_len;
  if (e->pj == 2) {
    if (!es_number(pj, pjn, num, 0)) return BAIL;
    pj = (const uint8_t *)num;
    pjn = strlen(num);
  }
  if (c->nmeta + 6 > c->capmeta) {
    size_t cap = c->capmeta ? c->capmeta * 2 : 6 * 1024;
    double *m = realloc(c->meta, cap * sizeof(double));
    if (!m) return BAIL;
    c->meta = m;
    c->capmeta = cap;
  }
  long did = desc_id(s, e);
  if (did < 0 && !s->checked && !c->desc.oom && !c->descs.oom) return RESCAN;
  long pid = did < 0 || !e->pj ? -1 : intern(&c->strs, pj, pjn);
  if (did < 0 || (e->pj && pid < 0)) return BAIL;
  double *m = c->meta + c->nmeta;
  m[0] = (double)ts; m[1] = m[2] = m[3] = 0; m[4] = (double)pid; m[5] = (double)did;
  c->no_rows_bytes += row_bytes(e, ts);
  c->nmeta += 6;
  c->events++;
  return 0;
}

static int blank(const uint8_t *p, size_t n) {
  for (size_t i = 0; i < n; i++) if (p[i] != ' ' && p[i] != '\t' && p[i] != '\r' && p[i] != '\v' && p[i] != '\f') return 0;
  return 1;
}

/* The tape path for the line in[st..end): transform_body of it alone (after the '\n' before it, so a BOM
 * is stripped only at the body's start, as transform_ndjson does). */
static const char *slow_line(ctx_t *c, const uint8_t *in, size_t st, size_t end) {
  if (st > 0) return transform_body(c, in + st - 1, end - st + 1, 1);
  if (end >= 3 && in[0] == 0xEF && in[1] == 0xBB && in[2] == 0xBF) return "invalid JSON (unexpected character)";
  return transform_body(c, in, end, 1);
}

const char *scan_body(ctx_t *c, const uint8_t *in, size_t n) {
  if (n >= 3 && in[0] == 0xEF && in[1] == 0xBB && in[2] == 0xBF) { in += 3; n -= 3; }
  if (n > 0xFFFFFFF0u) return "a body past 4 GiB";
  scan_t s;
  memset(&s, 0, sizeof s);
  s.c = c;
  s.in = in;
  const char *err = NULL;
  for (size_t st = 0; st <= n && !err;) {
    s.p = st;
    size_t end = scan_line(&s, n);
    if (!blank(in + st, end - st)) {
      event_t e;
      int r = scan_event(&s, &e);
      if (r == 0) r = emit_event(&s, &e);
      if (r == RESCAN) {
        s.checked = 1;
        s.p = st;
        r = scan_event(&s, &e);
        if (r == 0) r = emit_event(&s, &e);
        s.checked = 0;
      }
      if (r) err = slow_line(c, in, st, end);
    }
    if (end == n) break;
    st = end + 1;
  }
  free(s.koff); free(s.klen); free(s.qbits);
  b_free(&s.md); b_free(&s.ex);
  if (err) return err;
  if (c->events == 0) return "no events";
  if (c->strs.oom || c->descs.oom || c->rows.oom) return "out of memory";
  return NULL;
}
