/* bench_kineto: the Kineto decoder over every file under DIR, one thread,
 * each file read with read(2) in pieces (1 MiB by default) and fed as it
 * comes, the way the scanner reads: the memory held is one piece plus the
 * decoder. Prints files, bytes, events and the CPU seconds of the whole
 * run (read included), so MB/s per core = bytes / CPU s. Built and run
 * by tests/bench/bench_kineto.sh.
 *
 *   bench_kineto [--keep-python 0|1] [--piece BYTES] DIR */
#define _XOPEN_SOURCE 700
#include <fcntl.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "io/decode/kineto_decode.h"

static char *buf;
static size_t piece = 1u << 20;
static long long files, bytes, events, bad_files;
static kineto_dec_opts opts = {1, 0};

static void on_event(void *ud, const sm_kevent *e)
{
    (void)e;
    (*(long long *)ud)++;
}

static int visit(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
    (void)ftw;
    if (type != FTW_F || !S_ISREG(st->st_mode))
        return 0;
    int fd = open(path, O_RDONLY);
    if (fd < 0)
        return 0;
    kineto_dec *d = kineto_dec_new(&opts);
    if (!d)
        return 1;
    ssize_t r;
    while ((r = read(fd, buf, piece)) > 0) {
        bytes += r;
        if (kineto_dec_feed(d, buf, (size_t)r, on_event, &events) != 0)
            break;
    }
    close(fd);
    sm_kmeta m;
    sm_err err = {0};
    if (kineto_dec_finish(d, &m, &err) != 0) {
        fprintf(stderr, "%s: %s\n", path, err.msg);
        bad_files++;
    }
    kineto_dec_free(d);
    files++;
    return 0;
}

int main(int argc, char **argv)
{
    int a = 1;
    for (; a + 1 < argc && argv[a][0] == '-'; a += 2) {
        if (strcmp(argv[a], "--keep-python") == 0)
            opts.keep_python = atoi(argv[a + 1]);
        else if (strcmp(argv[a], "--piece") == 0)
            piece = (size_t)strtoull(argv[a + 1], NULL, 10);
    }
    if (a + 1 != argc || piece == 0) {
        fprintf(stderr, "usage: %s [--keep-python 0|1] [--piece BYTES] DIR\n", argv[0]);
        return 2;
    }
    if (!(buf = malloc(piece)))
        return 2;
    struct timespec t0, t1;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t0);
    if (nftw(argv[a], visit, 64, FTW_PHYS) != 0) {
        fprintf(stderr, "bench_kineto: cannot walk %s\n", argv[a]);
        return 1;
    }
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t1);
    double cpu = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
    printf("%lld files, %lld bytes, %lld events, %.3f cpu_s, %.1f MB/s, %lld bad\n", files,
           bytes, events, cpu, (double)bytes / 1e6 / cpu, bad_files);
    free(buf);
    return bad_files ? 1 : 0;
}
