/* CRC-32 as zlib's crc32() computes it (crc32.c): carry-less multiplication where the CPU has it, else tables. */
#ifndef RINGQL_CRC32_H
#define RINGQL_CRC32_H

#include <stddef.h>
#include <stdint.h>

/* Builds the tables and reads the CPU's features, once per process (crc32_update calls it; so may any thread). */
void crc32_init(void);
/* 1 when crc32_update takes the PCLMULQDQ path. */
int crc32_uses_clmul(void);
/* zlib's crc32(crc, p, n): the CRC of p[0..n) continued from crc (0 to start). tables_only: the table path (tests). */
uint32_t crc32_update(uint32_t crc, const uint8_t *p, size_t n, int tables_only);

#endif
