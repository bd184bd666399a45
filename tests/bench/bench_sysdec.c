/* bench_sysdec: MB/s of sys_decode_line (fast path) and
 * sys_decode_line_jansson on typical system-metrics lines, both spacings
 * the real writers use. Not a ctest. Rates are per CPU-second of this
 * thread, so a busy shared machine does not distort them much. Build and
 * run by hand:
 *
 *   gcc -O2 -std=c11 -D_GNU_SOURCE -I. tests/bench/bench_sysdec.c \
 *       io/decode/jscan.c io/decode/sys_decode.c $(pkg-config --cflags --libs jansson) -lm \
 *       -o /tmp/bench_sysdec && /tmp/bench_sysdec [MB]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "io/decode/sys_decode.h"

static char *make_lines(size_t target, size_t *len, size_t *nlines)
{
    char *buf = malloc(target + 512);
    if (!buf)
        return NULL;
    size_t at = 0, n = 0;
    unsigned seed = 12345;
    while (at < target) {
        seed = seed * 1103515245u + 12345u;
        unsigned dev = seed % 96, v = (seed >> 8) % 10000;
        long long ts = 1591748109LL + (long long)(n / 96);
        at += (size_t)((n & 1)
            ? sprintf(buf + at, "{\"Type\":\"cpu\",\"Name\":\"cpu%u\",\"Dimension\":"
                      "\"CPUUtilization\",\"Value\":%u.%02u,\"NodeId\":\"algo-1\","
                      "\"Timestamp\":%lld.%07u}\n", dev, v / 100, v % 100, ts, seed % 10000000)
            : sprintf(buf + at, "{\"Type\": \"gpu\", \"Name\":\"gpu%u\", \"Dimension\": "
                      "\"GPUUtilization\", \"Value\":%u.%u,\"NodeId\":\"algo-1\","
                      "\"Timestamp\":%lld.%07u}\n", dev % 8, v / 100, v % 10, ts, seed % 10000000));
        n++;
    }
    *len = at;
    *nlines = n;
    return buf;
}

typedef int (*decode_fn)(const char *, size_t, sm_sample *, sysdec_scratch *);

static double run(decode_fn fn, const char *buf, size_t len, double *checksum)
{
    sysdec_scratch sc = {0};
    sm_sample s;
    struct timespec t0, t1;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t0);
    for (const char *p = buf, *end = buf + len; p < end;) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        size_t n = (size_t)(nl - p);
        if (fn(p, n, &s, &sc) == 0)
            *checksum += s.value + (double)(s.ts_us & 0xff);
        p = nl + 1;
    }
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t1);
    sys_decode_scratch_free(&sc);
    double secs = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
    return (double)len / 1e6 / secs;
}

int main(int argc, char **argv)
{
    size_t mb = argc > 1 ? (size_t)atoi(argv[1]) : 64;
    size_t len, lines;
    char *buf = make_lines(mb << 20, &len, &lines);
    if (!buf) {
        fprintf(stderr, "bench_sysdec: out of memory for %zu MB of lines\n", mb);
        return 1;
    }
    double c1 = 0, c2 = 0, best_fast = 0, best_ref = 0;
    for (int rep = 0; rep < 3; rep++) {
        double f = run(sys_decode_line, buf, len, &c1);
        double r = rep == 0 ? run(sys_decode_line_jansson, buf, len, &c2) : 0;
        best_fast = f > best_fast ? f : best_fast;
        best_ref = r > best_ref ? r : best_ref;
    }
    printf("%zu lines, %.1f MB (avg %.0f B/line)\n", lines, (double)len / 1e6,
           (double)len / (double)lines);
    printf("sys_decode_line (fast)   %8.1f MB/s\n", best_fast);
    printf("sys_decode_line_jansson  %8.1f MB/s\n", best_ref);
    printf("checksums %.3f %.3f\n", c1 / 3, c2);
    free(buf);
    return 0;
}
