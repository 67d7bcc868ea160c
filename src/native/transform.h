/* The batch transform: ingest body bytes in, per event its stored row bytes, timestamp, project,
 * hot values and schema descriptor out (see README.md); anything unusual leaves the body to JS. */
#ifndef RINGQL_TRANSFORM_H
#define RINGQL_TRANSFORM_H

#include "tape.h"

#define MIN_TIMESTAMP_US (-62135596800000000LL)
#define MAX_TIMESTAMP_US (253402300799999999LL)
#define MAX_SAFE_INT 9007199254740991LL

int parse_iso_us(const uint8_t *s, size_t n, int64_t *out);
int parse_epoch_token(const uint8_t *t, size_t len, int64_t *out);

/* Distinct byte strings of one batch, numbered in first-seen order. */
typedef struct {
  bytes_t data;
  uint32_t *ends;
  size_t n, cap;
  uint32_t *slots; /* open addressing: id + 1, 0 = empty */
  size_t nslots;
  int oom;
} intern_t;

/* The id of bytes p[0..n) in t, added when new (first-seen order); -1 when out of memory. */
long intern(intern_t *t, const uint8_t *p, size_t n);
/* The id of bytes p[0..n) in t, or -1 when t does not hold them (nothing added). */
long intern_find(const intern_t *t, const uint8_t *p, size_t n);

typedef struct {
  const char **segs;
  const size_t *lens;
  size_t n;
} path_t;

typedef struct {
  /* Inputs (`in`: the body, after a BOM). */
  const uint8_t *in;
  int max_depth;
  int64_t max_string_bytes;
  int64_t now_us;
  path_t project;
  path_t *hot;
  size_t nhot;
  /* Outputs: rows, per-event numbers (stride 6 + 2 * nhot), interned strings and descriptors. */
  bytes_t rows;
  double *meta;
  size_t nmeta, capmeta;
  size_t events;
  intern_t strs, descs;
  bytes_t desc; /* the current event's descriptor */
  tape_t tape;
  uint8_t seed[16];
  size_t ids_made;
  /* Set by callers that read no row bytes (the CLI's column-only load): each event's row is written into a
   * reused scratch area and reported empty, so only timestamps, projects, hot values and descriptors come out. */
  int no_rows;
  /* The row buffer is a kept one whose pages are faulted in already (copyRows): no prefault. */
  int rows_warm;
  double no_rows_bytes; /* with no_rows: the bytes the rows would have taken */
} ctx_t;

/* Transforms a whole body (`ndjson`: one event per line); NULL on success, else why JS should take it. */
const char *transform_body(ctx_t *c, const uint8_t *in, size_t n, int ndjson);
void ctx_free(ctx_t *c);

#endif
