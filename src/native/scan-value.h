/* The noRows scan's state and value scanners (scan-value.c), shared with its event and body loop
 * (scan-body.c). Every scanner returns 0, or BAIL when the line must go to the tape path. */
#ifndef RINGQL_SCAN_VALUE_H
#define RINGQL_SCAN_VALUE_H

#include "transform.h"

#define BAIL 1
#define MAX_KEYS 256

typedef struct {
  ctx_t *c;
  const uint8_t *in;
  size_t p, end;
  bytes_t *d; /* where the descriptor being scanned goes: md or ex */
  bytes_t md, ex; /* this event's metadata descriptor, and its extra members' */
  /* The keys of the objects being scanned (a stack): offset and length in the input. */
  uint32_t *koff, *klen;
  size_t nk, capk;
  /* The line's quote bits (bit i of word i / 64: a '"' at line + i), valid when `simple`: the line holds no
   * backslash, no byte < 0x20 and none >= 0x80, so every string ends at the next quote. */
  uint64_t *qbits;
  size_t capq, line;
  int simple;
  /* The last descriptor ids interned (a small ring): an event of the same shape as a recent one reuses its
   * id after a compare instead of hashing its descriptor again. */
  long recent[4];
  unsigned nrecent;
  /* Whether nested objects' keys are checked for duplicates as they are scanned. Off by default: an event
   * whose descriptor the batch already holds has none (descriptors are only interned from checked scans or
   * the tape path, which refuses duplicates), so only an event of a new shape is scanned again with it on. */
  int checked;
} scan_t;

static inline void skip_ws(scan_t *s) {
  while (s->p < s->end) {
    uint8_t c = s->in[s->p];
    if (c != ' ' && c != '\t' && c != '\n' && c != '\r') break;
    s->p++;
  }
}

/* Finds the line at s->p: its end (s->end, returned) at the first '\n' before `limit`, else at `limit`; and sets
 * s->simple (and s->qbits) for it, in one pass over its bytes. */
size_t scan_line(scan_t *s, size_t limit);
/* A string without escapes (s->p after its opening quote): its bytes in the input. */
int scan_string(scan_t *s, uint32_t *off, uint32_t *len);
/* A number token at s->p: its length as the row writes it, and its type code. */
int scan_number(scan_t *s, uint64_t *json, int *code);
/* The next key of the event object (its keys begin at s->koff[0]; `seen`: its 256-bit filter of them), checked
 * for duplicates whatever s->checked says, and its ':'. */
int take_key(scan_t *s, size_t base, uint64_t *seen, uint32_t *koff, uint32_t *klen);
/* The member after a key (the object at `level`): its descriptor entry into s->d and its row JSON's length. */
int scan_member(scan_t *s, uint32_t koff, uint32_t klen, int level, uint64_t *json);
/* An object at s->p ('{') at nesting `level`: u32 length + members into s->d, json = its {...} length. */
int scan_object(scan_t *s, int level, uint64_t *json);
int scan_value(scan_t *s, int level, uint64_t *json, int *code);
/* 1 (s->p past it) when the literal w is at s->p. */
int scan_lit(scan_t *s, const char *w, size_t n);

#endif
