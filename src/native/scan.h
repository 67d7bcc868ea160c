/* The noRows scan: the CLI's column-only load of NDJSON in one pass per line, no tape (scan.c); any line it
 * cannot judge goes through transform_body, so its outputs equal transform_body's with no_rows. */
#ifndef RINGQL_SCAN_H
#define RINGQL_SCAN_H

#include "transform.h"

/* 1 when scan_body can take this context's bodies: no_rows, no hot paths, a one-key project path that
 * names none of the event's own members (id, timestamp, event_message, message, metadata). */
int scan_fits(const ctx_t *c);
/* transform_body(c, in, n, 1) for a context scan_fits accepts: same outputs, same declines. */
const char *scan_body(ctx_t *c, const uint8_t *in, size_t n);

#endif
