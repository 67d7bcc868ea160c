/* glibc allocator entry points of the addon: mallocInfo() → mallinfo2 figures (all arenas),
 * mallocTrim() → malloc_trim(0), mallocTune(mmapThreshold, trimThreshold, arenaMax) → mallopt. */
#include <malloc.h>
#include <node_api.h>

#include "malloc-tune.h"

static void set_number(napi_env env, napi_value obj, const char *name, double v) {
  napi_value n;
  if (napi_create_double(env, v, &n) == napi_ok) napi_set_named_property(env, obj, name, n);
}

/* mallocInfo(): {arena, ordblks, hblks, hblkhd, uordblks, fordblks, keepcost} summed over every arena:
 * arena = bytes of heap memory got from the system (sbrk + arena heaps), hblkhd = bytes in mmapped
 * chunks, uordblks = bytes in use, fordblks = free bytes held, keepcost = releasable top of the main heap. */
napi_value malloc_info_fn(napi_env env, napi_callback_info info) {
  struct mallinfo2 m = mallinfo2();
  napi_value obj;
  if (napi_create_object(env, &obj) != napi_ok) return NULL;
  set_number(env, obj, "arena", (double)m.arena);
  set_number(env, obj, "ordblks", (double)m.ordblks);
  set_number(env, obj, "hblks", (double)m.hblks);
  set_number(env, obj, "hblkhd", (double)m.hblkhd);
  set_number(env, obj, "uordblks", (double)m.uordblks);
  set_number(env, obj, "fordblks", (double)m.fordblks);
  set_number(env, obj, "keepcost", (double)m.keepcost);
  return obj;
}

/* mallocTrim(): returns free memory of every arena to the system (malloc_trim(0)); true when some was. */
napi_value malloc_trim_fn(napi_env env, napi_callback_info info) {
  napi_value ret;
  if (napi_get_boolean(env, malloc_trim(0) != 0, &ret) != napi_ok) return NULL;
  return ret;
}

/* mallocTune(mmapThreshold, trimThreshold, arenaMax): mallopt for each argument above 0 (fixing the
 * mmap threshold also stops glibc raising it after big frees); returns how many settings were refused. */
napi_value malloc_tune_fn(napi_env env, napi_callback_info info) {
  size_t argc = 3;
  napi_value argv[3], ret;
  int64_t v[3] = {0, 0, 0};
  if (napi_get_cb_info(env, info, &argc, argv, NULL, NULL) != napi_ok) return NULL;
  if (argc < 3) { napi_throw_type_error(env, NULL, "mallocTune takes 3 arguments"); return NULL; }
  for (int i = 0; i < 3; i++) {
    if (napi_get_value_int64(env, argv[i], &v[i]) != napi_ok || v[i] < 0 || v[i] > 0x7fffffff) {
      napi_throw_range_error(env, NULL, "mallocTune: each argument must be an integer in [0, 2^31)");
      return NULL;
    }
  }
  int refused = 0;
  if (v[0] > 0 && mallopt(M_MMAP_THRESHOLD, (int)v[0]) != 1) refused++;
  if (v[1] > 0 && mallopt(M_TRIM_THRESHOLD, (int)v[1]) != 1) refused++;
  if (v[2] > 0 && mallopt(M_ARENA_MAX, (int)v[2]) != 1) refused++;
  if (napi_create_int32(env, refused, &ret) != napi_ok) return NULL;
  return ret;
}
