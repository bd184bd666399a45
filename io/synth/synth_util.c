/* synth_util: random numbers, number formatting and directory helpers of the
 * synthetic generator. The formatters are hand-rolled because snprintf("%g")
 * cannot produce Python's shortest repr, and because a 60-minute 4-node job
 * is 1.5 M lines that must be written in a few seconds. */
#include <errno.h>
#include <math.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "io/synth/synth_internal.h"

static uint64_t splitmix64(uint64_t *x)
{
    uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

void synth_rng_seed(synth_rng *r, uint64_t seed, uint64_t stream)
{
    uint64_t x = seed ^ (stream * 0xd1b54a32d192ed03ULL);
    r->s = splitmix64(&x);
    if (!r->s) /* xorshift's one forbidden state */
        r->s = 0x2545f4914f6cdd1dULL;
}

uint64_t synth_rng_next(synth_rng *r)
{
    uint64_t x = r->s;
    x ^= x >> 12;
    x ^= x << 25;
    x ^= x >> 27;
    r->s = x;
    return x * 0x2545f4914f6cdd1dULL;
}

double synth_rng_unit(synth_rng *r)
{
    return (double)(synth_rng_next(r) >> 11) * (1.0 / 9007199254740992.0);
}

double synth_rng_normal(synth_rng *r)
{
    double u = synth_rng_unit(r), v = synth_rng_unit(r);
    return sqrt(-2.0 * log(1.0 - u)) * cos(6.283185307179586 * v);
}

char *synth_fmt_i64(char *p, int64_t v)
{
    char tmp[24];
    int n = 0;
    uint64_t u = v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;
    if (v < 0)
        *p++ = '-';
    do {
        tmp[n++] = (char)('0' + u % 10);
        u /= 10;
    } while (u);
    while (n)
        *p++ = tmp[--n];
    return p;
}

char *synth_fmt_value(char *p, double v)
{
    int64_t c = llround(v * 100.0);
    if (c < 0) {
        *p++ = '-';
        c = -c;
    }
    p = synth_fmt_i64(p, c / 100);
    int frac = (int)(c % 100);
    *p++ = '.';
    *p++ = (char)('0' + frac / 10);
    if (frac % 10) /* repr drops a trailing zero but keeps one digit */
        *p++ = (char)('0' + frac % 10);
    return p;
}

char *synth_fmt_ts(char *p, int64_t t_100ns)
{
    p = synth_fmt_i64(p, t_100ns / 10000000);
    *p++ = '.';
    int64_t frac = t_100ns % 10000000;
    for (int i = 6; i >= 0; i--) {
        p[i] = (char)('0' + frac % 10);
        frac /= 10;
    }
    return p + 7;
}

void synth_fmt_hour(char out[11], int64_t t_us)
{
    time_t s = (time_t)(t_us / 1000000);
    struct tm tm;
    gmtime_r(&s, &tm);
    strftime(out, 11, "%Y%m%d%H", &tm);
}

int synth_mkdirs(const char *path, sm_err *err)
{
    char buf[4096];
    size_t n = strlen(path);
    if (n == 0 || n >= sizeof buf)
        return sm_err_set(err, SM_ERR_USAGE, "output path is empty or too long");
    memcpy(buf, path, n + 1);
    for (size_t i = 1; i <= n; i++) {
        if (buf[i] != '/' && buf[i] != '\0')
            continue;
        char c = buf[i];
        buf[i] = '\0';
        struct stat st;
        if (mkdir(buf, 0777) != 0 && errno != EEXIST)
            return sm_err_set(err, SM_ERR_IO, "cannot create directory %s: %s",
                              buf, strerror(errno));
        if (stat(buf, &st) != 0 || !S_ISDIR(st.st_mode))
            return sm_err_set(err, SM_ERR_IO, "cannot create directory %s: "
                              "a file of that name is in the way", buf);
        buf[i] = c;
    }
    return 0;
}

int synth_write(FILE *f, const void *buf, size_t n, const char *path,
                sm_err *err)
{
    if (n && fwrite(buf, 1, n, f) != n)
        return sm_err_set(err, SM_ERR_IO, "cannot write %s: %s", path,
                          strerror(errno));
    return 0;
}
