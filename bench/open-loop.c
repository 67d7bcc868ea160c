/* The open-loop generator of bench/open-loop.ts in C (issue 18, p99 at a fixed rate), for rates the Node
 * one cannot hold: request k is due at start + k/rate; a due request goes out on any idle keep-alive
 * connection (FIFO), and its latency counts from its due time. Busy-polls epoll; prints the same JSON.
 *   Build: gcc -O2 -o open-loop bench/open-loop.c   Run: open-loop <port> <path> <req/s> <seconds> <connections> <token> */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

typedef struct { int fd; int busy; double due, sent; char buf[65536]; size_t len; } conn_t;

static double now_ms(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

static int cmp(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

static double pct(double *v, long n, double p) {
  if (!n) return 0.0 / 0.0;
  long i = (long)(p * n);
  return v[i < n ? i : n - 1];
}

/* Length of the first complete response in c->buf and its status, or 0 while incomplete. */
static size_t response_length(conn_t *c, int *status) {
  c->buf[c->len] = 0;
  char *end = strstr(c->buf, "\r\n\r\n");
  if (!end) return 0;
  char *cl = strcasestr(c->buf, "\r\ncontent-length:");
  if (!cl || cl > end) { fprintf(stderr, "open-loop: answer without Content-Length\n"); exit(1); }
  size_t n = strtoul(cl + 17, NULL, 10), total = (size_t)(end - c->buf) + 4 + n;
  if (c->len < total) return 0;
  *status = atoi(c->buf + 9);
  return total;
}

int main(int argc, char **argv) {
  if (argc < 7) { fprintf(stderr, "usage: open-loop <port> <path> <req/s> <seconds> <connections> <token>\n"); return 2; }
  int port = atoi(argv[1]), nconn = atoi(argv[5]);
  double rate = atof(argv[3]), seconds = atof(argv[4]);
  char req[4096];
  int reqlen = snprintf(req, sizeof req, "GET %s HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nX-API-KEY: %s\r\n\r\n", argv[2], port, argv[6]);
  long total = (long)(rate * seconds), answered = 0, non200 = 0, sends = 0, next = 0, queued = 0;
  double *lat = calloc(total + 1, sizeof(double)), *from_send = calloc(total + 1, sizeof(double)), *lag = calloc(total + 1, sizeof(double));
  conn_t *conns = calloc(nconn, sizeof(conn_t));
  int ep = epoll_create1(0);
  struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = htons(port) };
  inet_pton(AF_INET, "127.0.0.1", &a.sin_addr);
  for (int i = 0; i < nconn; i++) {
    int fd = socket(AF_INET, SOCK_STREAM, 0), one = 1;
    if (connect(fd, (struct sockaddr *)&a, sizeof a) < 0) { perror("connect"); return 1; }
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    conns[i].fd = fd;
    struct epoll_event ev = { .events = EPOLLIN, .data.u32 = i };
    epoll_ctl(ep, EPOLL_CTL_ADD, fd, &ev);
  }
  struct rusage r0, r1;
  getrusage(RUSAGE_SELF, &r0);
  double t0 = now_ms() + 5, interval = 1000.0 / rate;
  struct epoll_event evs[256];
  /* Due requests not yet sent are next - sends ... queued counts them; they go out in due order. */
  for (;;) {
    double t = now_ms();
    while (next < total && t0 + next * interval <= t) { next++; queued++; }
    for (int i = 0; i < nconn && queued > 0; i++) {
      conn_t *c = &conns[i];
      if (c->busy) continue;
      c->due = t0 + sends * interval;
      c->sent = now_ms();
      lag[sends++] = c->sent - c->due;
      queued--;
      c->busy = 1;
      if (write(c->fd, req, reqlen) != reqlen) { perror("write"); return 1; }
    }
    if (next >= total && answered + non200 >= total) break;
    if (t > t0 + seconds * 1000 + 10000) break; /* answers still missing 10 s after the last was due */
    int n = epoll_wait(ep, evs, 256, 0);
    for (int k = 0; k < n; k++) {
      conn_t *c = &conns[evs[k].data.u32];
      ssize_t got = read(c->fd, c->buf + c->len, sizeof c->buf - 1 - c->len);
      if (got <= 0) { fprintf(stderr, "open-loop: connection closed (%s)\n", got ? strerror(errno) : "EOF"); return 1; }
      c->len += got;
      int status;
      size_t len = response_length(c, &status);
      if (!len || !c->busy) continue;
      double done = now_ms();
      if (status == 200) { lat[answered] = done - c->due; from_send[answered] = done - c->sent; answered++; } else non200++;
      memmove(c->buf, c->buf + len, c->len - len);
      c->len -= len;
      c->busy = 0;
    }
  }
  double wall = (now_ms() - t0) / 1000;
  getrusage(RUSAGE_SELF, &r1);
  double cpu = (r1.ru_utime.tv_sec - r0.ru_utime.tv_sec + r1.ru_stime.tv_sec - r0.ru_stime.tv_sec +
                (r1.ru_utime.tv_usec - r0.ru_utime.tv_usec + r1.ru_stime.tv_usec - r0.ru_stime.tv_usec) / 1e6) / wall;
  qsort(lat, answered, sizeof(double), cmp);
  qsort(from_send, answered, sizeof(double), cmp);
  qsort(lag, sends, sizeof(double), cmp);
  printf("{\"due\":%ld,\"answered\":%ld,\"non200\":%ld,\"reqPerSec\":%.1f,\"p50ms\":%.4f,\"p99ms\":%.4f,\"p999ms\":%.4f,\"maxms\":%.4f,"
         "\"p99FromSendMs\":%.4f,\"sendLagP99ms\":%.4f,\"cpu\":%.3f}\n",
         total, answered, non200, answered / wall, pct(lat, answered, 0.5), pct(lat, answered, 0.99), pct(lat, answered, 0.999),
         answered ? lat[answered - 1] : 0.0, pct(from_send, answered, 0.99), pct(lag, sends, 0.99), cpu);
  return 0;
}
