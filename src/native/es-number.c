/* ECMAScript Number::toString of a JSON number token: the shortest digits that round-trip (read
 * straight from tokens of at most 15 significant digits, else found with correctly rounded printf). */
#include "tape.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

double token_double(const uint8_t *tok, size_t len) {
  char buf[512];
  if (len >= sizeof buf) {
    char *heap = malloc(len + 1);
    if (!heap) return NAN;
    memcpy(heap, tok, len);
    heap[len] = 0;
    double d = strtod(heap, NULL);
    free(heap);
    return d;
  }
  memcpy(buf, tok, len);
  buf[len] = 0;
  return strtod(buf, NULL);
}

/* Writes digits d[0..k) with decimal point position n (value = 0.d × 10^n) in ES form. */
static int es_format(const char *d, int k, int n, int neg, char *out) {
  char *o = out;
  if (neg) *o++ = '-';
  if (k <= n && n <= 21) {
    memcpy(o, d, k); o += k;
    for (int i = k; i < n; i++) *o++ = '0';
  } else if (0 < n && n <= 21) {
    memcpy(o, d, n); o += n;
    *o++ = '.';
    memcpy(o, d + n, k - n); o += k - n;
  } else if (-6 < n && n <= 0) {
    *o++ = '0'; *o++ = '.';
    for (int i = 0; i < -n; i++) *o++ = '0';
    memcpy(o, d, k); o += k;
  } else {
    *o++ = d[0];
    if (k > 1) { *o++ = '.'; memcpy(o, d + 1, k - 1); o += k - 1; }
    *o++ = 'e';
    int e = n - 1;
    *o++ = e < 0 ? '-' : '+';
    o += sprintf(o, "%d", e < 0 ? -e : e);
  }
  *o = 0;
  return (int)(o - out);
}

/* Significant digits d[0..k) and point position n straight from the token; 0 when it has more than
 * 15 significant digits or an exponent far out (then the double decides). */
static int token_digits(const uint8_t *t, size_t len, char *d, int *k, int *n, int *neg) {
  size_t p = 0;
  *neg = t[0] == '-';
  if (*neg) p++;
  int nd = 0, intlen = 0, lead = 0, started = 0, in_frac = 0;
  long exp = 0;
  for (; p < len; p++) {
    uint8_t c = t[p];
    if (c == '.') { in_frac = 1; continue; }
    if (c == 'e' || c == 'E') {
      size_t q = p + 1;
      if (q < len && (t[q] == '+' || t[q] == '-')) q++;
      if (len - q > 4) return 0;
      exp = strtol((const char *)t + p + 1, NULL, 10);
      break;
    }
    if (!in_frac) intlen++;
    if (!started) {
      if (c == '0') { lead++; continue; }
      started = 1;
    }
    if (nd == 15) return 0;
    d[nd++] = (char)c;
  }
  while (nd > 0 && d[nd - 1] == '0') nd--;
  *k = nd;
  *n = (int)(intlen + exp - lead);
  if (nd > 0 && (*n > 300 || *n < -290)) return 0;
  return 1;
}

int es_number(const uint8_t *tok, size_t len, char *out, int json) {
  char d[40];
  int k, n, neg;
  if (token_digits(tok, len, d, &k, &n, &neg)) {
    if (k == 0) { strcpy(out, "0"); return 1; }
    es_format(d, k, n, neg, out);
    return 1;
  }
  double v = token_double(tok, len);
  if (!isfinite(v)) {
    if (!json) return 0;
    strcpy(out, "null");
    return 1;
  }
  if (v == 0) { strcpy(out, "0"); return 1; }
  neg = v < 0;
  if (neg) v = -v;
  char buf[40];
  for (int p = 1; p <= 17; p++) {
    snprintf(buf, sizeof buf, "%.*e", p - 1, v);
    if (strtod(buf, NULL) == v) break;
  }
  /* buf is "D.DDDDe±XX" */
  k = 0;
  char *e = strchr(buf, 'e');
  for (char *c = buf; c < e; c++) if (*c != '.') d[k++] = *c;
  while (k > 1 && d[k - 1] == '0') k--;
  n = atoi(e + 1) + 1;
  es_format(d, k, n, neg, out);
  return 1;
}
