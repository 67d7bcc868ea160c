/* Row order by (timestamp, index) for store/ts-order.ts's big inputs (see ts-order.c). */
#ifndef RINGQL_TS_ORDER_H
#define RINGQL_TS_ORDER_H

#include <stddef.h>
#include <stdint.h>

/* out[0, n) = indices of ts[0, n) by (ts, index). 1 when done; 0 when a value is not an integer or the
 * span passes 2^52 (the caller sorts by comparator then); -1 out of memory. */
int ts_order(const double *ts, size_t n, uint32_t *out);

#endif
