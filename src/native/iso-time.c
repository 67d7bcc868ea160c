/* Timestamp values of ingested events as core/time.ts parses them: ISO 8601 / BigQuery strings (the
 * grammar of its ISO_RE, ASCII only) and integer epoch tokens scaled by digit count, exactly. */
#include "transform.h"

#include <string.h>

static int is_digit(uint8_t c) { return c >= '0' && c <= '9'; }
static int is_space(uint8_t c) { return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r'; }

static int64_t days_from_civil(int64_t y, int64_t m, int64_t d) {
  int64_t yy = m <= 2 ? y - 1 : y;
  int64_t era = (yy >= 0 ? yy : yy - 399) / 400;
  int64_t yoe = yy - era * 400;
  int64_t doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
  int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + doe - 719468;
}

static int days_in_month(int64_t y, int64_t m) {
  int leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
  return m == 2 ? (leap ? 29 : 28) : (m == 4 || m == 6 || m == 9 || m == 11) ? 30 : 31;
}

/* Up to `max` digits (at least `min`) at s[*p]; -1 when fewer than min. */
static long digits(const uint8_t *s, size_t n, size_t *p, int min, int max) {
  long v = 0;
  int k = 0;
  while (*p < n && k < max && is_digit(s[*p])) { v = v * 10 + (s[*p] - '0'); (*p)++; k++; }
  return k < min ? -1 : v;
}

/* The zone at s[p..n) (ISO_RE's tail): 1 with *offset_min set, 0 when it does not match to the end. */
static int parse_zone(const uint8_t *s, size_t p, size_t n, long *offset_min) {
  *offset_min = 0;
  if (p == n) return 1;
  size_t q = p;
  if (is_space(s[q])) q++;
  if (q < n && (s[q] == 'Z' || s[q] == 'z') && q + 1 == n) return 1;
  if (q < n && (s[q] == '+' || s[q] == '-')) {
    long sign = s[q] == '-' ? -1 : 1;
    size_t r = q + 1;
    if (n - r < 2 || !is_digit(s[r]) || !is_digit(s[r + 1])) return 0;
    long oh = (s[r] - '0') * 10 + (s[r + 1] - '0'), om = 0;
    r += 2;
    size_t t = r;
    if (t < n && s[t] == ':') t++;
    if (n - t >= 2 && is_digit(s[t]) && is_digit(s[t + 1])) { om = (s[t] - '0') * 10 + (s[t + 1] - '0'); r = t + 2; }
    if (r != n) return 0;
    if (oh > 23 || om > 59) return -1;
    *offset_min = sign * (oh * 60 + om);
    return 1;
  }
  q = p;
  while (q < n && is_space(s[q])) q++;
  if (q == p) return 0;
  if (n - q == 3 && memcmp(s + q, "UTC", 3) == 0) return 1;
  if (n - q == 1 && s[q] == 'Z') return 1;
  return 0;
}

int parse_iso_us(const uint8_t *s0, size_t n0, int64_t *out) {
  for (size_t i = 0; i < n0; i++) if (s0[i] >= 0x80) return 0;
  size_t a = 0, n = n0;
  while (a < n && is_space(s0[a])) a++;
  while (n > a && is_space(s0[n - 1])) n--;
  const uint8_t *s = s0 + a;
  n -= a;
  size_t p = 0;
  long y = digits(s, n, &p, 4, 4);
  if (y < 0 || p >= n || s[p] != '-') return 0;
  p++;
  long mo = digits(s, n, &p, 1, 2);
  if (mo < 0 || p >= n || s[p] != '-') return 0;
  p++;
  long d = digits(s, n, &p, 1, 2);
  if (d < 0) return 0;
  long h = 0, mi = 0, sec = 0, frac = 0;
  if (p < n && (s[p] == 'T' || s[p] == 't' || s[p] == ' ')) {
    size_t q = p + 1;
    long hh = digits(s, n, &q, 1, 2);
    if (hh >= 0 && q < n && s[q] == ':') {
      q++;
      long mm = digits(s, n, &q, 2, 2);
      if (mm >= 0) {
        h = hh; mi = mm; p = q;
        if (p < n && s[p] == ':') {
          size_t r = p + 1;
          long ss = digits(s, n, &r, 2, 2);
          if (ss >= 0) {
            sec = ss; p = r;
            if (p < n && (s[p] == '.' || s[p] == ',') && p + 1 < n && is_digit(s[p + 1])) {
              size_t f = p + 1, st = f;
              while (f < n && is_digit(s[f]) && f - st < 9) f++;
              long v = 0;
              for (size_t i = 0; i < 6; i++) v = v * 10 + (st + i < f ? s[st + i] - '0' : 0);
              frac = v;
              p = f;
            }
          }
        }
      }
    }
  }
  long off;
  int z = parse_zone(s, p, n, &off);
  if (z <= 0) return 0;
  if (y < 1 || mo < 1 || mo > 12 || d < 1 || d > days_in_month(y, mo)) return 0;
  if (h > 23 || mi > 59 || sec > 59) return 0;
  int64_t seconds = days_from_civil(y, mo, d) * 86400 + h * 3600 + mi * 60 + sec - (int64_t)off * 60;
  int64_t us = seconds * 1000000 + frac;
  if (us < MIN_TIMESTAMP_US || us > MAX_TIMESTAMP_US) return 0;
  *out = us;
  return 1;
}

int parse_epoch_token(const uint8_t *t, size_t len, int64_t *out) {
  int neg = t[0] == '-';
  size_t p = neg ? 1 : 0;
  if (len - p > 19) return 0;
  uint64_t v = 0;
  for (size_t i = p; i < len; i++) {
    if (!is_digit(t[i])) return 0;
    v = v * 10 + (uint64_t)(t[i] - '0');
  }
  size_t nd = len - p;
  int64_t us;
  if (v == 0) us = 0;
  else if (nd <= 10) us = (int64_t)v * 1000000;
  else if (nd <= 13) us = (int64_t)v * 1000;
  else if (nd <= 16) us = (int64_t)v;
  else {
    uint64_t q = neg ? (v + 999) / 1000 : v / 1000;
    us = (int64_t)q;
  }
  if (neg) us = -us;
  if (us < MIN_TIMESTAMP_US || us > MAX_TIMESTAMP_US) return 0;
  *out = us;
  return 1;
}
