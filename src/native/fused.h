/* The one-pass transform's state (fused.c writes values, fused-event.c events and bodies): the parser,
 * the buffers being written, the key stack of the duplicate-key check, the project and hot captures. */
#ifndef RINGQL_FUSED_H
#define RINGQL_FUSED_H

#include "transform.h"

#define FB "not for the one-pass transform"
#define MAX_CAPS 16

enum { CAP_ABSENT, CAP_INEXACT, CAP_VALUE };

/* The project (caps[0]) or a hot path's value as found so far: a scalar by its bytes (input or arena). */
typedef struct {
  const path_t *path;
  uint8_t hot, state, kind, own;
  uint32_t off, len;
} cap_t;

/* "This value is the capture's value after d segments" (u: it is the element of a one-element array). */
typedef struct {
  uint8_t cap, d, u;
} act_t;

typedef struct {
  uint64_t fp;
  uint32_t off, len;
  uint8_t own;
} fkey_t;

/* A scalar member of the event read as it is (id, timestamp, event_message, message). */
typedef struct {
  uint8_t has, kind, own;
  uint32_t off, len;
} scalar_t;

typedef struct {
  ctx_t *c;
  parser_t s;
  bytes_t *row, *desc;
  bytes_t md_row, md_desc, ex_row, ex_desc;
  int skip, parse_limit, pd_off, root_single;
  cap_t caps[MAX_CAPS];
  size_t ncaps;
  fkey_t *keys;
  size_t nkeys, capkeys;
} fz_t;

static inline const uint8_t *fz_bytes(const fz_t *f, int own, uint32_t off) {
  return own ? f->s.in + off : f->s.t->arena.p + off;
}

/* put_escaped of a string, or (own: its input bytes, nothing to escape) one copy, or with no_rows a count. */
static inline void fz_str(fz_t *f, bytes_t *b, const uint8_t *s, size_t n, int own) {
  if (!own) { put_escaped(b, s, n); return; }
  if (f->skip) { f->c->no_rows_bytes += (double)n + 2; return; }
  b_reserve(b, n + 2);
  if (b->oom) return;
  b->p[b->n] = '"';
  copy_bytes(b->p + b->n + 1, s, n);
  b->p[b->n + 1 + n] = '"';
  b->n += n + 2;
}

static inline uint8_t miss_state(const cap_t *k) { return k->hot ? CAP_INEXACT : CAP_ABSENT; }

void acts_scalar(fz_t *f, const act_t *a, int na, uint8_t kind, uint8_t own, uint32_t off, uint32_t len);
int acts_object(fz_t *f, const act_t *a, int na, act_t *dst);
int acts_member(const fz_t *f, const act_t *a, int na, const uint8_t *k, uint32_t klen, act_t *dst);
const char *fz_read_key(fz_t *f, size_t base, uint32_t count, uint64_t *seen, uint32_t *koff, uint32_t *klen, uint8_t *kin);
const char *fz_member(fz_t *f, uint32_t koff, uint32_t klen, uint8_t kin, int wd, const act_t *acts, int na);
const char *fz_object(fz_t *f, int wd, const act_t *acts, int na);
const char *fz_value(fz_t *f, int wd, int in_array, const act_t *acts, int na, int *tc, uint8_t *kind);

#endif
