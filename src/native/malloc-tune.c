/* glibc allocator entry points of the addon: mallocInfo() → mallinfo2 figures (all arenas),
 * mallocTrim() → malloc_trim(0), mallocTune(mmapThreshold, trimThreshold, arenaMax) → mallopt,
 * adviseHugePages(bytes) → madvise(MADV_HUGEPAGE) over a big buffer's whole 2 MiB pages. */
#include <malloc.h>
#include <node_api.h>
#include <stdint.h>
#include <sys/mman.h>

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

/* Transparent huge pages are 2 MiB on x86-64 and on arm64 with 4 KiB base pages. */
#define HUGE_PAGE ((uintptr_t)2 << 20)

/* adviseHugePages(bytes): madvise(MADV_HUGEPAGE) over the whole 2 MiB pages that lie inside the memory of a
 * Uint8Array, before it is first written, so it faults in 2 MiB at a time instead of 4 KiB (where a first touch
 * of a page costs ~10 µs, as on the VMs of bench/INGEST.md round 15, a 16 MiB read buffer costs ~40 ms less).
 * Returns the bytes advised: 0 when no whole huge page fits or the kernel refused it (no THP support); with THP
 * set to "never" the advice is taken and has no effect. */
size_t advise_huge(void *data, size_t len) {
  uintptr_t a = ((uintptr_t)data + HUGE_PAGE - 1) & ~(HUGE_PAGE - 1), e = ((uintptr_t)data + len) & ~(HUGE_PAGE - 1);
  return data != NULL && e > a && madvise((void *)a, e - a, MADV_HUGEPAGE) == 0 ? (size_t)(e - a) : 0;
}

napi_value advise_huge_pages_fn(napi_env env, napi_callback_info info) {
  size_t argc = 1, len = 0, off = 0;
  napi_value argv[1], ab, ret;
  napi_typedarray_type t;
  void *data = NULL;
  bool typed = false;
  if (napi_get_cb_info(env, info, &argc, argv, NULL, NULL) != napi_ok) return NULL;
  if (argc < 1 || napi_is_typedarray(env, argv[0], &typed) != napi_ok || !typed ||
      napi_get_typedarray_info(env, argv[0], &t, &len, &data, &ab, &off) != napi_ok || t != napi_uint8_array) {
    napi_throw_type_error(env, NULL, "adviseHugePages: bytes must be a Uint8Array");
    return NULL;
  }
  if (napi_create_double(env, (double)advise_huge(data, len), &ret) != napi_ok) return NULL;
  return ret;
}
