/* The open-loop generator of bench/open-loop.ts in C (issue 18, p99 at a fixed rate), for rates the Node
 * one cannot hold: request k is due at start + k/rate; a due request goes out on any idle keep-alive
 * connection (FIFO), and its latency counts from its due time. Prints the same JSON, plus where its own lag went.
 *   Build: gcc -O2 -o open-loop bench/open-loop.c
 *   Run: open-loop <port> <path> <req/s> <seconds> <connections> <token> [isolated|sleep|session|plain]
 * isolated (default): its own session (setsid, so its own autogroup), SCHED_FIFO when permitted (said in the
 * JSON when not), memory locked, and it sleeps in epoll_pwait2 until the next due time or answer instead of
 * spinning. plain: the old loop (same session as its parent, SCHED_OTHER, busy-polls epoll). session: plain
 * in its own session; sleep: session, sleeping as isolated does (so each factor can be measured alone).
 * Every answer also carries the kernel's receive timestamp (SO_TIMESTAMPNS), so the time the answer sat in
 * the socket before this process read it (its read lag) is measured, and the latency to arrival beside it. */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

typedef struct { int fd; int busy; long k; char buf[65536]; size_t len; } conn_t;

/* Per request k (due at t0 + k * interval): when the loop saw it due, when it was written, when its answer's
 * last bytes reached the socket (kernel timestamp) and when this process had read them, all ms CLOCK_MONOTONIC. */
typedef struct { double *notice, *sent, *arrived, *read; } times_t;

static double now_ms(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

/* CLOCK_REALTIME minus CLOCK_MONOTONIC, ms: SO_TIMESTAMPNS stamps are realtime. */
static double real_offset_ms(void) {
  struct timespec r, m;
  clock_gettime(CLOCK_MONOTONIC, &m);
  clock_gettime(CLOCK_REALTIME, &r);
  return (r.tv_sec - m.tv_sec) * 1e3 + (r.tv_nsec - m.tv_nsec) / 1e6;
}

static int cmp(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

/* The p-quantile of v[0..n) (sorts v). */
static double pct(double *v, long n, double p) {
  if (!n) return 0.0 / 0.0;
  qsort(v, n, sizeof(double), cmp);
  long i = (long)(p * n);
  return v[i < n ? i : n - 1];
}

/* This thread's time waiting for a CPU while runnable, ms (/proc/thread-self/schedstat, field 2). */
static double run_delay_ms(void) {
  FILE *f = fopen("/proc/thread-self/schedstat", "r");
  unsigned long long on = 0, wait = 0;
  if (f) { if (fscanf(f, "%llu %llu", &on, &wait) != 2) wait = 0; fclose(f); }
  return wait / 1e6;
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

/* Reads what c's socket holds; *stamp gets the kernel receive time of the data read (ms, realtime). */
static ssize_t read_stamped(conn_t *c, double *stamp) {
  struct iovec io = { c->buf + c->len, sizeof c->buf - 1 - c->len };
  char ctl[CMSG_SPACE(sizeof(struct timespec))];
  struct msghdr m = { .msg_iov = &io, .msg_iovlen = 1, .msg_control = ctl, .msg_controllen = sizeof ctl };
  ssize_t got = recvmsg(c->fd, &m, 0);
  for (struct cmsghdr *h = CMSG_FIRSTHDR(&m); got > 0 && h; h = CMSG_NXTHDR(&m, h)) {
    if (h->cmsg_level == SOL_SOCKET && h->cmsg_type == SCM_TIMESTAMPNS) {
      struct timespec ts;
      memcpy(&ts, CMSG_DATA(h), sizeof ts);
      *stamp = ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
    }
  }
  return got;
}

/* What a mode asks for: its own session (setsid: its own autogroup), SCHED_FIFO, sleeping until due. */
typedef struct { int session, fifo, sleep; } mode_t_;

static mode_t_ mode_of(const char *m) {
  if (!strcmp(m, "plain")) return (mode_t_){ 0, 0, 0 };
  if (!strcmp(m, "session")) return (mode_t_){ 1, 0, 0 };
  if (!strcmp(m, "sleep")) return (mode_t_){ 1, 0, 1 };
  if (!strcmp(m, "isolated")) return (mode_t_){ 1, 1, 1 };
  fprintf(stderr, "open-loop: mode must be isolated, sleep, session or plain, not %s\n", m);
  exit(2);
}

/* Applies mode `m` (named `name`); writes what it got into `how` (JSON fields). */
static void isolate(const char *name, mode_t_ m, char *how, size_t cap) {
  const char *session = !m.session ? "parent's" : setsid() >= 0 ? "own" : "parent's (setsid failed)";
  char sched[128] = "other";
  if (m.fifo) {
    mlockall(MCL_CURRENT | MCL_FUTURE);
    struct sched_param sp = { .sched_priority = 10 };
    if (sched_setscheduler(0, SCHED_FIFO, &sp) == 0) snprintf(sched, sizeof sched, "fifo");
    else snprintf(sched, sizeof sched, "other (SCHED_FIFO refused: %s)", strerror(errno));
  }
  snprintf(how, cap, "\"mode\":\"%s\",\"session\":\"%s\",\"sched\":\"%s\",\"pacing\":\"%s\"", name, session, sched, m.sleep ? "sleep" : "busy-poll");
}

/* How long the loop may sleep, ms: until the next due time (so each request's due moment is seen on time
 * even while every connection is busy), or for an answer once all are due. */
static double sleep_for(long next, long total, double due_next, double t) {
  if (next < total) return due_next > t ? due_next - t : 0;
  return 10;
}

static void wait_events(int ep, struct epoll_event *evs, int *n, int busy, double ms) {
  if (busy || ms <= 0) { *n = epoll_wait(ep, evs, 256, 0); return; }
  struct timespec ts = { (time_t)(ms / 1e3), (long)((ms - (time_t)(ms / 1e3) * 1e3) * 1e6) };
  *n = epoll_pwait2(ep, evs, 256, &ts, NULL);
}

int main(int argc, char **argv) {
  if (argc < 7) { fprintf(stderr, "usage: open-loop <port> <path> <req/s> <seconds> <connections> <token> [isolated|sleep|session|plain]\n"); return 2; }
  int port = atoi(argv[1]), nconn = atoi(argv[5]);
  const char *mode = argc < 8 ? "isolated" : argv[7];
  mode_t_ md = mode_of(mode);
  double rate = atof(argv[3]), seconds = atof(argv[4]);
  char req[4096], how[256];
  isolate(mode, md, how, sizeof how);
  int reqlen = snprintf(req, sizeof req, "GET %s HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nX-API-KEY: %s\r\n\r\n", argv[2], port, argv[6]);
  long total = (long)(rate * seconds), answered = 0, non200 = 0, sends = 0, next = 0, queued = 0;
  times_t tm = { calloc(total + 1, 8), calloc(total + 1, 8), calloc(total + 1, 8), calloc(total + 1, 8) };
  double *v = calloc(total + 1, sizeof(double));
  long *ok = calloc(total + 1, sizeof(long));
  conn_t *conns = calloc(nconn, sizeof(conn_t));
  int ep = epoll_create1(0);
  struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = htons(port) };
  inet_pton(AF_INET, "127.0.0.1", &a.sin_addr);
  for (int i = 0; i < nconn; i++) {
    int fd = socket(AF_INET, SOCK_STREAM, 0), one = 1;
    if (connect(fd, (struct sockaddr *)&a, sizeof a) < 0) { perror("connect"); return 1; }
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    setsockopt(fd, SOL_SOCKET, SO_TIMESTAMPNS, &one, sizeof one);
    conns[i].fd = fd;
    struct epoll_event ev = { .events = EPOLLIN, .data.u32 = i };
    epoll_ctl(ep, EPOLL_CTL_ADD, fd, &ev);
  }
  struct rusage r0, r1;
  getrusage(RUSAGE_SELF, &r0);
  double delay0 = run_delay_ms(), off = real_offset_ms();
  double t0 = now_ms() + 5, interval = 1000.0 / rate;
  struct epoll_event evs[256];
  /* Due requests not yet sent are next - sends ... queued counts them; they go out in due order. */
  for (;;) {
    double t = now_ms();
    while (next < total && t0 + next * interval <= t) { tm.notice[next++] = t; queued++; }
    for (int i = 0; i < nconn && queued > 0; i++) {
      conn_t *c = &conns[i];
      if (c->busy) continue;
      c->k = sends;
      tm.sent[sends++] = now_ms();
      queued--;
      c->busy = 1;
      if (write(c->fd, req, reqlen) != reqlen) { perror("write"); return 1; }
    }
    if (next >= total && answered + non200 >= total) break;
    if (t > t0 + seconds * 1000 + 10000) break; /* answers still missing 10 s after the last was due */
    int n;
    wait_events(ep, evs, &n, !md.sleep, sleep_for(next, total, t0 + next * interval, now_ms()));
    for (int k = 0; k < n; k++) {
      conn_t *c = &conns[evs[k].data.u32];
      double stamp = 0;
      ssize_t got = read_stamped(c, &stamp);
      if (got <= 0) { fprintf(stderr, "open-loop: connection closed (%s)\n", got ? strerror(errno) : "EOF"); return 1; }
      c->len += got;
      int status;
      size_t len = response_length(c, &status);
      if (!len || !c->busy) continue;
      double done = now_ms();
      if (status == 200) { tm.read[c->k] = done; tm.arrived[c->k] = stamp ? stamp - off : done; ok[answered++] = c->k; } else non200++;
      memmove(c->buf, c->buf + len, c->len - len);
      c->len -= len;
      c->busy = 0;
    }
  }
  double wall = (now_ms() - t0) / 1000, delay = run_delay_ms() - delay0;
  getrusage(RUSAGE_SELF, &r1);
  double cpu = (r1.ru_utime.tv_sec - r0.ru_utime.tv_sec + r1.ru_stime.tv_sec - r0.ru_stime.tv_sec +
                (r1.ru_utime.tv_usec - r0.ru_utime.tv_usec + r1.ru_stime.tv_usec - r0.ru_stime.tv_usec) / 1e6) / wall;
  #define DUE(k) (t0 + (k) * interval)
  #define Q(expr, p) ({ for (long j = 0; j < answered; j++) { long k = ok[j]; v[j] = (expr); } pct(v, answered, p); })
  double p50 = Q(tm.read[k] - DUE(k), 0.5), p99 = Q(tm.read[k] - DUE(k), 0.99), p999 = Q(tm.read[k] - DUE(k), 0.999), mx = Q(tm.read[k] - DUE(k), 1.0);
  double fromSend = Q(tm.read[k] - tm.sent[k], 0.99), sendLag = Q(tm.sent[k] - DUE(k), 0.99);
  double late = Q(tm.notice[k] - DUE(k), 0.99), connWait = Q(tm.sent[k] - tm.notice[k], 0.99);
  double readLag = Q(tm.read[k] - tm.arrived[k], 0.99), readLagMax = Q(tm.read[k] - tm.arrived[k], 1.0);
  double arr99 = Q(tm.arrived[k] - DUE(k), 0.99), arr999 = Q(tm.arrived[k] - DUE(k), 0.999);
  printf("{\"due\":%ld,\"answered\":%ld,\"non200\":%ld,\"reqPerSec\":%.1f,\"p50ms\":%.4f,\"p99ms\":%.4f,\"p999ms\":%.4f,\"maxms\":%.4f,"
         "\"p99FromSendMs\":%.4f,\"sendLagP99ms\":%.4f,\"cpu\":%.3f,%s,\"lateP99ms\":%.4f,\"connWaitP99ms\":%.4f,"
         "\"readLagP99ms\":%.4f,\"readLagMaxMs\":%.4f,\"p99ArrivedMs\":%.4f,\"p999ArrivedMs\":%.4f,"
         "\"runDelayMs\":%.2f,\"involuntarySwitches\":%ld}\n",
         total, answered, non200, answered / wall, p50, p99, p999, mx, fromSend, sendLag, cpu, how, late, connWait,
         readLag, readLagMax, arr99, arr999, delay, r1.ru_nivcsw - r0.ru_nivcsw);
  return 0;
}
