/* glibc allocator entry points of the addon (malloc-tune.c): statistics, trim, mallopt, huge-page advice. */
#ifndef RINGQL_MALLOC_TUNE_H
#define RINGQL_MALLOC_TUNE_H
#include <node_api.h>

napi_value malloc_info_fn(napi_env env, napi_callback_info info);
napi_value malloc_trim_fn(napi_env env, napi_callback_info info);
napi_value malloc_tune_fn(napi_env env, napi_callback_info info);
napi_value advise_huge_pages_fn(napi_env env, napi_callback_info info);
/* madvise(MADV_HUGEPAGE) over the whole 2 MiB pages inside data[0, len), before it is written; the bytes advised. */
size_t advise_huge(void *data, size_t len);

#endif
