/* N-API entry point of ringql's ingest addon: transform(body, ndjson, maxDepth, maxStringBytes,
 * nowUs, projectPath, hotPaths, idSeed[, noRows[, copyRows[, rowsInto]]]) → {n, rows, meta, strs, strEnds, descs,
 * descEnds} or a reason string (noRows: every row reported empty, for the CLI's column-only load; rowsInto: a Buffer
 * the rows are written into while they fit it, then `rowsInto` = their length replaces `rows`);
 * gather(dst, at, src, ranges, count) copies byte ranges of src end to end into dst (a seal's row copies);
 * crc32(bytes, seed[, tablesOnly]) is zlib's crc32 (crc32.c), by PCLMULQDQ where the CPU has it;
 * copyBytes(dst, at, src) is a memcpy into dst (V8 copies into shared memory by relaxed atomic words);
 * mallocInfo / mallocTrim / mallocTune: the glibc allocator (malloc-tune.c). */
#include <node_api.h>
#include <stdlib.h>
#include <string.h>

#include "crc32.h"
#include "malloc-tune.h"
#include "scan.h"
#include "transform.h"
#include "ts-order.h"

#define CHECK(call) do { if ((call) != napi_ok) { napi_throw_error(env, NULL, "ringql_ingest: " #call " failed"); goto out; } } while (0)
#define MAX_PARSE_DEPTH 400

static int read_path(napi_env env, napi_value arr, path_t *p) {
  uint32_t n;
  if (napi_get_array_length(env, arr, &n) != napi_ok) return 0;
  p->n = n;
  p->segs = calloc(n ? n : 1, sizeof(char *));
  p->lens = calloc(n ? n : 1, sizeof(size_t));
  if (!p->segs || !p->lens) return 0;
  for (uint32_t i = 0; i < n; i++) {
    napi_value s;
    size_t len;
    if (napi_get_element(env, arr, i, &s) != napi_ok) return 0;
    if (napi_get_value_string_utf8(env, s, NULL, 0, &len) != napi_ok) return 0;
    char *buf = malloc(len + 1);
    if (!buf) return 0;
    napi_get_value_string_utf8(env, s, buf, len + 1, &len);
    p->segs[i] = buf;
    ((size_t *)p->lens)[i] = len;
  }
  return 1;
}

static void free_path(path_t *p) {
  if (p->segs) for (size_t i = 0; i < p->n; i++) free((void *)p->segs[i]);
  free((void *)p->segs);
  free((void *)p->lens);
}

static napi_value u32_array(napi_env env, const uint32_t *src, size_t n) {
  napi_value ab, ta;
  void *data;
  if (napi_create_arraybuffer(env, n * 4, &data, &ab) != napi_ok) return NULL;
  if (n) memcpy(data, src, n * 4);
  if (napi_create_typedarray(env, napi_uint32_array, n, ab, 0, &ta) != napi_ok) return NULL;
  return ta;
}

static void free_rows(napi_env env, void *data, void *hint) {
  (void)env;
  (void)hint;
  free(data);
}

/* A N-API call of result_object: on failure (a thread being terminated refuses to make values) NULL goes back,
 * never a write through a pointer the call did not set (an unchecked arraybuffer once crashed a shutdown). */
#define OK(call) do { if ((call) != napi_ok) return NULL; } while (0)

static napi_value result_object(napi_env env, ctx_t *c, int copy_rows) {
  napi_value obj, v, ab;
  void *data = NULL;
  OK(napi_create_object(env, &obj));
  OK(napi_create_uint32(env, (uint32_t)c->events, &v));
  OK(napi_set_named_property(env, obj, "n", v));
  if (c->no_rows) {
    OK(napi_create_double(env, c->no_rows_bytes, &v));
    OK(napi_set_named_property(env, obj, "noRowsBytes", v));
  }
  /* The rows (the bulk of the output) are handed over without a copy; V8 frees them with the Buffer. With
   * copy_rows (the transform thread, which posts them on) they are copied into a Buffer of their own instead,
   * one that can be transferred, and this thread's row buffer is kept for its next body. */
  if (c->rows.borrowed) {
    /* Written into the caller's rowsInto Buffer (it fitted): only their length goes back. */
    OK(napi_create_double(env, (double)c->rows.n, &v));
    OK(napi_set_named_property(env, obj, "rowsInto", v));
  } else if (copy_rows) {
    OK(napi_create_buffer_copy(env, c->rows.n, c->rows.p ? (void *)c->rows.p : (void *)"", NULL, &v));
  } else if (c->rows.n > 0 && napi_create_external_buffer(env, c->rows.n, c->rows.p, free_rows, NULL, &v) == napi_ok) {
    c->rows.p = NULL;
    c->rows.n = c->rows.cap = 0;
  } else {
    OK(napi_create_buffer_copy(env, c->rows.n, c->rows.p ? (void *)c->rows.p : (void *)"", NULL, &v));
  }
  if (!c->rows.borrowed) OK(napi_set_named_property(env, obj, "rows", v));
  OK(napi_create_arraybuffer(env, c->nmeta * sizeof(double), &data, &ab));
  if (c->nmeta) memcpy(data, c->meta, c->nmeta * sizeof(double));
  OK(napi_create_typedarray(env, napi_float64_array, c->nmeta, ab, 0, &v));
  OK(napi_set_named_property(env, obj, "meta", v));
  OK(napi_create_buffer_copy(env, c->strs.data.n, c->strs.data.p ? (void *)c->strs.data.p : (void *)"", NULL, &v));
  OK(napi_set_named_property(env, obj, "strs", v));
  if ((v = u32_array(env, c->strs.ends, c->strs.n)) == NULL) return NULL;
  OK(napi_set_named_property(env, obj, "strEnds", v));
  OK(napi_create_buffer_copy(env, c->descs.data.n, c->descs.data.p ? (void *)c->descs.data.p : (void *)"", NULL, &v));
  OK(napi_set_named_property(env, obj, "descs", v));
  if ((v = u32_array(env, c->descs.ends, c->descs.n)) == NULL) return NULL;
  OK(napi_set_named_property(env, obj, "descEnds", v));
  return obj;
}

/* The parse tape of this thread's last body, kept for its next one: with the mmap threshold fixed at 128 KiB
 * (store/native-ingest.ts) a tape of that size would be mapped and fault its pages in again on every body.
 * A tape past KEEP_TAPE_BYTES is freed instead, so at most that much stays per thread between bodies. */
#define KEEP_TAPE_BYTES ((size_t)4 << 20)
static __thread tape_t kept_tape;
/* With copyRows, the rows are written into this thread's kept buffer (its pages faulted in already) and copied
 * out; one past KEEP_ROWS_BYTES is freed instead. */
#define KEEP_ROWS_BYTES ((size_t)16 << 20)
static __thread bytes_t kept_rows;

static napi_value transform(napi_env env, napi_callback_info info) {
  size_t argc = 11;
  napi_value argv[11], ret = NULL;
  bool copy_rows = false, into = false;
  ctx_t c;
  memset(&c, 0, sizeof c);
  c.tape = kept_tape;
  memset(&kept_tape, 0, sizeof kept_tape);
  tape_reset(&c.tape);
  c.tape.oom = 0;
  c.tape.arena.oom = 0;
  void *body = NULL;
  size_t blen = 0;
  bool ndjson;
  int32_t depth;
  double maxs, now;
  uint32_t nhot = 0;
  CHECK(napi_get_cb_info(env, info, &argc, argv, NULL, NULL));
  if (argc < 8) { napi_throw_type_error(env, NULL, "transform takes 8 arguments"); goto out; }
  void *seed;
  size_t seedlen;
  CHECK(napi_get_buffer_info(env, argv[7], &seed, &seedlen));
  if (seedlen != 16) { napi_throw_range_error(env, NULL, "the id seed must be 16 bytes"); goto out; }
  memcpy(c.seed, seed, 16);
  CHECK(napi_get_buffer_info(env, argv[0], &body, &blen));
  CHECK(napi_get_value_bool(env, argv[1], &ndjson));
  CHECK(napi_get_value_int32(env, argv[2], &depth));
  CHECK(napi_get_value_double(env, argv[3], &maxs));
  CHECK(napi_get_value_double(env, argv[4], &now));
  c.max_depth = depth > MAX_PARSE_DEPTH ? MAX_PARSE_DEPTH : depth;
  c.max_string_bytes = (int64_t)maxs;
  c.now_us = (int64_t)now;
  if (argc >= 9) {
    bool no_rows = false;
    CHECK(napi_get_value_bool(env, argv[8], &no_rows));
    c.no_rows = no_rows;
  }
  if (argc >= 10) CHECK(napi_get_value_bool(env, argv[9], &copy_rows));
  if (argc >= 11) {
    /* rowsInto: the rows are written into this Buffer while they fit it (then no memory is got for them). */
    napi_valuetype t;
    CHECK(napi_typeof(env, argv[10], &t));
    if (t != napi_undefined && t != napi_null && !c.no_rows) {
      void *d;
      size_t len;
      CHECK(napi_get_buffer_info(env, argv[10], &d, &len));
      c.rows.p = d;
      c.rows.cap = len;
      c.rows.borrowed = 1;
      into = true;
    }
  }
  if (copy_rows && !c.no_rows && !into) {
    c.rows = kept_rows;
    c.rows.n = 0;
    c.rows_warm = c.rows.cap > 0;
    memset(&kept_rows, 0, sizeof kept_rows);
  }
  if (!read_path(env, argv[5], &c.project)) { napi_throw_error(env, NULL, "ringql_ingest: bad project path"); goto out; }
  CHECK(napi_get_array_length(env, argv[6], &nhot));
  c.hot = calloc(nhot ? nhot : 1, sizeof(path_t));
  c.nhot = nhot;
  for (uint32_t h = 0; h < nhot; h++) {
    napi_value p;
    CHECK(napi_get_element(env, argv[6], h, &p));
    if (!read_path(env, p, &c.hot[h])) { napi_throw_error(env, NULL, "ringql_ingest: bad hot path"); goto out; }
  }
  const char *why = ndjson && scan_fits(&c) ? scan_body(&c, (const uint8_t *)body, blen) : transform_body(&c, (const uint8_t *)body, blen, ndjson);
  if (why) CHECK(napi_create_string_utf8(env, why, NAPI_AUTO_LENGTH, &ret));
  else ret = result_object(env, &c, copy_rows);
out:
  free_path(&c.project);
  if (c.hot) for (size_t h = 0; h < c.nhot; h++) free_path(&c.hot[h]);
  free(c.hot);
  if (copy_rows && !c.no_rows && !into && !c.rows.oom && c.rows.cap <= KEEP_ROWS_BYTES) {
    kept_rows = c.rows;
    kept_rows.n = 0;
    memset(&c.rows, 0, sizeof c.rows);
  }
  if (!c.tape.oom && !c.tape.arena.oom && c.tape.cap * sizeof(node_t) + c.tape.arena.cap <= KEEP_TAPE_BYTES) {
    kept_tape = c.tape;
    memset(&c.tape, 0, sizeof c.tape);
  }
  ctx_free(&c);
  return ret;
}

/* gather(dst, at, src, ranges, count): copies src[ranges[2k], ranges[2k + 1]) for k < count end to end
 * into dst from byte `at`; returns the bytes copied. Throws a RangeError (copying nothing) when a range
 * lies outside src or the whole does not fit in dst. */
static napi_value gather(napi_env env, napi_callback_info info) {
  size_t argc = 5;
  napi_value argv[5], ret = NULL;
  void *dst, *src, *rv;
  size_t dlen, slen, rlen, roff;
  napi_typedarray_type rt;
  napi_value rab;
  double at;
  uint32_t count;
  CHECK(napi_get_cb_info(env, info, &argc, argv, NULL, NULL));
  if (argc < 5) { napi_throw_type_error(env, NULL, "gather takes 5 arguments"); goto out; }
  CHECK(napi_get_buffer_info(env, argv[0], &dst, &dlen));
  CHECK(napi_get_value_double(env, argv[1], &at));
  CHECK(napi_get_buffer_info(env, argv[2], &src, &slen));
  CHECK(napi_get_typedarray_info(env, argv[3], &rt, &rlen, &rv, &rab, &roff));
  CHECK(napi_get_value_uint32(env, argv[4], &count));
  if (rt != napi_float64_array || (size_t)count * 2 > rlen) { napi_throw_type_error(env, NULL, "gather: ranges must be a Float64Array of 2 × count numbers"); goto out; }
  const double *r = rv;
  double total = 0;
  for (uint32_t k = 0; k < count; k++) {
    double a = r[2 * k], b = r[2 * k + 1];
    if (!(a >= 0 && b >= a && b <= (double)slen)) { napi_throw_range_error(env, NULL, "gather: a range outside the source"); goto out; }
    total += b - a;
  }
  if (!(at >= 0 && at + total <= (double)dlen)) { napi_throw_range_error(env, NULL, "gather: the ranges do not fit in the target"); goto out; }
  uint8_t *d = (uint8_t *)dst + (size_t)at;
  for (uint32_t k = 0; k < count; k++) {
    size_t a = (size_t)r[2 * k], n = (size_t)r[2 * k + 1] - a;
    memcpy(d, (const uint8_t *)src + a, n);
    d += n;
  }
  CHECK(napi_create_double(env, total, &ret));
out:
  return ret;
}

/* The data and length of `v` when it is a typed array of type `want`, else 0 with a TypeError `msg` thrown. */
static int typed_view(napi_env env, napi_value v, napi_typedarray_type want, const char *msg, void **data, size_t *len) {
  napi_typedarray_type t;
  napi_value ab;
  size_t off;
  bool is_typed = false;
  if (napi_is_typedarray(env, v, &is_typed) != napi_ok || !is_typed ||
      napi_get_typedarray_info(env, v, &t, len, data, &ab, &off) != napi_ok || t != want) {
    napi_throw_type_error(env, NULL, msg);
    return 0;
  }
  return 1;
}

/* tsOrder(ts, out): out (a Uint32Array of ts.length) = row indices by (ts, index) (ts-order.c); true when
 * done, false when a value is not an integer or the span passes 2^52 (the caller sorts those itself). */
static napi_value ts_order_fn(napi_env env, napi_callback_info info) {
  size_t argc = 2;
  napi_value argv[2], ret = NULL;
  void *tv, *ov;
  size_t tn, on;
  const char *msg = "tsOrder: a Float64Array and a Uint32Array of its length";
  CHECK(napi_get_cb_info(env, info, &argc, argv, NULL, NULL));
  if (argc < 2) { napi_throw_type_error(env, NULL, "tsOrder takes 2 arguments"); goto out; }
  if (!typed_view(env, argv[0], napi_float64_array, msg, &tv, &tn) || !typed_view(env, argv[1], napi_uint32_array, msg, &ov, &on)) goto out;
  if (on != tn) { napi_throw_type_error(env, NULL, msg); goto out; }
  int r = ts_order(tv, tn, ov);
  if (r < 0) { napi_throw_error(env, NULL, "tsOrder: out of memory"); goto out; }
  CHECK(napi_get_boolean(env, r == 1, &ret));
out:
  return ret;
}

/* crc32(bytes, seed[, tablesOnly]): zlib's crc32 of a Uint8Array (any view, shared memory too) continued
 * from seed (0 to start); tablesOnly takes the table path (tests compare both with node:zlib). */
static napi_value crc32_fn(napi_env env, napi_callback_info info) {
  size_t argc = 3;
  napi_value argv[3], ret = NULL;
  void *data;
  size_t n;
  uint32_t seed = 0;
  bool tables = false;
  CHECK(napi_get_cb_info(env, info, &argc, argv, NULL, NULL));
  if (argc < 2) { napi_throw_type_error(env, NULL, "crc32 takes 2 or 3 arguments"); goto out; }
  if (!typed_view(env, argv[0], napi_uint8_array, "crc32: bytes must be a Uint8Array", &data, &n)) goto out;
  CHECK(napi_get_value_uint32(env, argv[1], &seed));
  if (argc > 2) CHECK(napi_get_value_bool(env, argv[2], &tables));
  CHECK(napi_create_uint32(env, crc32_update(seed, data, n, tables), &ret));
out:
  return ret;
}

/* copyBytes(dst, at, src): all of src (an ArrayBuffer or a Uint8Array) into the Uint8Array dst from byte `at`,
 * by memcpy; returns the bytes copied. A RangeError (nothing copied) when it does not fit. An ingest body's
 * chunks go into a shared-memory slot this way: V8's own copy into a SharedArrayBuffer goes by relaxed atomic
 * words, ~7 % of the main thread's samples under HTTP ingest. */
static napi_value copy_bytes_fn(napi_env env, napi_callback_info info) {
  size_t argc = 3;
  napi_value argv[3], ret = NULL;
  void *dst, *src;
  size_t dn, sn;
  double at;
  bool is_ab = false;
  CHECK(napi_get_cb_info(env, info, &argc, argv, NULL, NULL));
  if (argc < 3) { napi_throw_type_error(env, NULL, "copyBytes takes 3 arguments"); goto out; }
  if (!typed_view(env, argv[0], napi_uint8_array, "copyBytes: dst must be a Uint8Array", &dst, &dn)) goto out;
  CHECK(napi_get_value_double(env, argv[1], &at));
  CHECK(napi_is_arraybuffer(env, argv[2], &is_ab));
  if (is_ab) CHECK(napi_get_arraybuffer_info(env, argv[2], &src, &sn));
  else if (!typed_view(env, argv[2], napi_uint8_array, "copyBytes: src must be an ArrayBuffer or a Uint8Array", &src, &sn)) goto out;
  if (!(at >= 0 && at + (double)sn <= (double)dn)) { napi_throw_range_error(env, NULL, "copyBytes: the source does not fit in the target"); goto out; }
  if (sn > 0) memcpy((uint8_t *)dst + (size_t)at, src, sn);
  CHECK(napi_create_double(env, (double)sn, &ret));
out:
  return ret;
}

static napi_value init(napi_env env, napi_value exports) {
  napi_value fn, flag;
  crc32_init();
  napi_create_function(env, "copyBytes", NAPI_AUTO_LENGTH, copy_bytes_fn, NULL, &fn);
  napi_set_named_property(env, exports, "copyBytes", fn);
  napi_create_function(env, "crc32", NAPI_AUTO_LENGTH, crc32_fn, NULL, &fn);
  napi_set_named_property(env, exports, "crc32", fn);
  napi_get_boolean(env, crc32_uses_clmul(), &flag);
  napi_set_named_property(env, exports, "crc32Clmul", flag);
  napi_create_function(env, "transform", NAPI_AUTO_LENGTH, transform, NULL, &fn);
  napi_set_named_property(env, exports, "transform", fn);
  napi_create_function(env, "gather", NAPI_AUTO_LENGTH, gather, NULL, &fn);
  napi_set_named_property(env, exports, "gather", fn);
  napi_create_function(env, "tsOrder", NAPI_AUTO_LENGTH, ts_order_fn, NULL, &fn);
  napi_set_named_property(env, exports, "tsOrder", fn);
  napi_create_function(env, "mallocInfo", NAPI_AUTO_LENGTH, malloc_info_fn, NULL, &fn);
  napi_set_named_property(env, exports, "mallocInfo", fn);
  napi_create_function(env, "mallocTrim", NAPI_AUTO_LENGTH, malloc_trim_fn, NULL, &fn);
  napi_set_named_property(env, exports, "mallocTrim", fn);
  napi_create_function(env, "mallocTune", NAPI_AUTO_LENGTH, malloc_tune_fn, NULL, &fn);
  napi_set_named_property(env, exports, "mallocTune", fn);
  napi_create_function(env, "adviseHugePages", NAPI_AUTO_LENGTH, advise_huge_pages_fn, NULL, &fn);
  napi_set_named_property(env, exports, "adviseHugePages", fn);
  return exports;
}

NAPI_MODULE(NODE_GYP_MODULE_NAME, init)
