/* bench_inflate: zlib, ISA-L (igzip) and libdeflate inflating the same
 * .gz files, one thread, hot in memory (issue 35 point 2: the choice of
 * the Kineto decoder's inflate; the figures are in BENCHMARKS.md and in
 * io/decode/gunzip.c's comment).
 *
 *   zlib       inflate() streaming into a 256 KiB buffer, as the decoder
 *              ran it before
 *   isal       isal_inflate() streaming into a 256 KiB buffer, the input
 *              in 1 MiB pieces (the scanner's reads)
 *   libdeflate libdeflate_gzip_decompress() of the whole file into one
 *              buffer of the whole output, kept across runs (it has no
 *              streaming mode: the decoder would have to hold the whole
 *              inflated trace, so it is measured for scale)
 *
 * Prints, per library, the median thread CPU seconds of REPS runs over
 * every file and MB/s of inflated JSON. Each run checks that every
 * library produced the same number of bytes and the same FNV-1a hash.
 *
 *   bench_inflate [-r REPS] FILE.gz...
 *   cc -O2 tests/bench/bench_inflate.c -lz -lisal -ldeflate */
#define _GNU_SOURCE
#include <fcntl.h>
#include <isa-l/igzip_lib.h>
#include <libdeflate.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <zlib.h>

#define OUT (256u << 10)
#define PIECE (1u << 20)

typedef struct file {
    const char *path;
    unsigned char *gz;
    size_t n;
} file;

typedef struct sum {
    uint64_t bytes, h;
} sum;

static void hash(sum *s, const unsigned char *p, size_t n)
{
    /* Only every 4096th byte of the output (counted from its start, so the
     * pieces' sizes do not matter): the check must cost little. */
    size_t i = (4096 - s->bytes % 4096) % 4096;
    for (; i < n; i += 4096)
        s->h = (s->h ^ p[i]) * 0x100000001b3ull;
    s->bytes += n;
}

static double cpu_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static int run_zlib(const file *f, unsigned char *out, sum *s)
{
    z_stream z;
    memset(&z, 0, sizeof z);
    if (inflateInit2(&z, 16 + MAX_WBITS) != Z_OK)
        return -1;
    z.next_in = f->gz;
    z.avail_in = (uInt)f->n;
    int rc;
    do {
        z.next_out = out;
        z.avail_out = OUT;
        rc = inflate(&z, Z_NO_FLUSH);
        hash(s, out, OUT - z.avail_out);
        if (rc == Z_STREAM_END && z.avail_in > 0) {
            inflateReset(&z);
            rc = Z_OK;
        }
    } while (rc == Z_OK);
    inflateEnd(&z);
    return rc == Z_STREAM_END ? 0 : -1;
}

static int run_isal(const file *f, unsigned char *out, sum *s, struct inflate_state *st)
{
    isal_inflate_init(st);
    st->crc_flag = ISAL_GZIP;
    size_t at = 0;
    while (at < f->n) {
        size_t n = f->n - at < PIECE ? f->n - at : PIECE;
        st->next_in = f->gz + at;
        st->avail_in = (uint32_t)n;
        at += n;
        while (st->avail_in > 0 || st->block_state != ISAL_BLOCK_FINISH) {
            if (st->block_state == ISAL_BLOCK_FINISH) {   /* another member */
                uint8_t *ni = st->next_in;
                uint32_t ai = st->avail_in;
                isal_inflate_reset(st);
                st->crc_flag = ISAL_GZIP;
                st->next_in = ni;
                st->avail_in = ai;
            }
            st->next_out = out;
            st->avail_out = OUT;
            if (isal_inflate(st) != ISAL_DECOMP_OK)
                return -1;
            size_t got = OUT - st->avail_out;
            hash(s, out, got);
            if (got < OUT && st->avail_in == 0)
                break;
        }
    }
    return st->block_state == ISAL_BLOCK_FINISH ? 0 : -1;
}

static int run_deflate(const file *f, struct libdeflate_decompressor *dd, sum *s)
{
    /* One output buffer kept across files and runs (its pages faulted in
     * once): the fairest case for a whole-buffer library. */
    static unsigned char *o;
    static size_t cap;
    const unsigned char *p = f->gz;
    size_t left = f->n;
    while (left > 0) {
        /* ISIZE of the last member sizes the buffer (single-member files:
         * exact); a multi-member file grows it and retries */
        size_t want = ((size_t)p[left - 4] | (size_t)p[left - 3] << 8 | (size_t)p[left - 2] << 16
                       | (size_t)p[left - 1] << 24) + 1;
        for (;;) {
            if (want > cap) {
                free(o);
                if (!(o = malloc(want)))
                    return -1;
                cap = want;
                memset(o, 0, cap);
            }
            size_t in_used = 0, got = 0;
            enum libdeflate_result r = libdeflate_gzip_decompress_ex(dd, p, left, o, cap, &in_used, &got);
            if (r == LIBDEFLATE_SUCCESS) {
                hash(s, o, got);
                p += in_used;
                left -= in_used;
                break;
            }
            if (r != LIBDEFLATE_INSUFFICIENT_SPACE)
                return -1;
            want = cap * 2;
        }
    }
    return 0;
}

static int cmp_d(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

int main(int argc, char **argv)
{
    int reps = 5, a = 1;
    if (a + 1 < argc && strcmp(argv[a], "-r") == 0) {
        reps = atoi(argv[a + 1]);
        a += 2;
    }
    int nf = argc - a;
    if (nf <= 0 || reps <= 0 || reps > 99) {
        fprintf(stderr, "usage: bench_inflate [-r REPS] FILE.gz...\n");
        return 2;
    }
    file *fs = calloc((size_t)nf, sizeof *fs);
    size_t gz_total = 0;
    for (int i = 0; i < nf; i++) {
        struct stat sb;
        int fd = open(argv[a + i], O_RDONLY);
        if (fd < 0 || fstat(fd, &sb) != 0) {
            fprintf(stderr, "bench_inflate: cannot open %s\n", argv[a + i]);
            return 1;
        }
        fs[i].path = argv[a + i];
        fs[i].n = (size_t)sb.st_size;
        fs[i].gz = malloc(fs[i].n + 1);
        if (!fs[i].gz || read(fd, fs[i].gz, fs[i].n) != (ssize_t)fs[i].n) {
            fprintf(stderr, "bench_inflate: cannot read %s\n", argv[a + i]);
            return 1;
        }
        close(fd);
        gz_total += fs[i].n;
    }
    unsigned char *out = malloc(OUT);
    struct inflate_state *st = malloc(sizeof *st);
    struct libdeflate_decompressor *dd = libdeflate_alloc_decompressor();
    const char *names[3] = {"zlib", "isal", "libdeflate"};
    double t[3][99];
    sum ref = {0, 0};
    for (int r = 0; r < reps; r++) {
        for (int lib = 0; lib < 3; lib++) {
            sum s = {0, 0xcbf29ce484222325ull};
            double t0 = cpu_now();
            for (int i = 0; i < nf; i++) {
                int rc = lib == 0 ? run_zlib(&fs[i], out, &s)
                       : lib == 1 ? run_isal(&fs[i], out, &s, st)
                                  : run_deflate(&fs[i], dd, &s);
                if (rc != 0) {
                    fprintf(stderr, "bench_inflate: %s failed on %s\n", names[lib], fs[i].path);
                    return 1;
                }
            }
            t[lib][r] = cpu_now() - t0;
            if (r == 0 && lib == 0)
                ref = s;
            else if (s.bytes != ref.bytes || s.h != ref.h) {
                fprintf(stderr, "bench_inflate: %s disagrees with zlib\n", names[lib]);
                return 1;
            }
        }
    }
    printf("files %d  gz %.1f MB  json %.1f MB  reps %d\n", nf, gz_total / 1e6, ref.bytes / 1e6,
           reps);
    printf("%-11s %10s %14s %8s\n", "library", "CPU s", "MB/s of JSON", "vs zlib");
    double zl = 0;
    for (int lib = 0; lib < 3; lib++) {
        qsort(t[lib], (size_t)reps, sizeof t[lib][0], cmp_d);
        double m = t[lib][reps / 2];
        if (lib == 0)
            zl = m;
        printf("%-11s %10.3f %14.0f %7.2fx\n", names[lib], m, ref.bytes / 1e6 / m, zl / m);
    }
    libdeflate_free_decompressor(dd);
    return 0;
}
