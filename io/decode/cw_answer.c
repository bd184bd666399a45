/* cw_answer: GetMetricData answers into points and samples; see
 * cw_answer.h. */
#include "io/decode/cw_answer.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/aws/s3_xml.h"
#include "model/jobs/instance_types.h"
#include "model/util/stable_sort.h"
#include "model/util/vec.h"

void cw_answer_job_type(cw_answer_job *j, const char *instance_type, int groups)
{
    j->gpus = j->vcpus = 0;
    j->known = groups <= 1 && instance_types_lookup(instance_type, &j->gpus, &j->vcpus) &&
               j->vcpus > 0;
}

/* The end of the element whose content starts at p (just past its
 * "<member>"), counting nested members; NULL when it never closes. */
static const char *member_end(const char *p)
{
    int depth = 1;
    while (depth > 0) {
        const char *open = strstr(p, "<member>"), *close = strstr(p, "</member>");
        if (!close)
            return NULL;
        if (open && open < close) {
            depth++;
            p = open + 8;
        } else {
            depth--;
            p = close + 9;
        }
    }
    return p - 9;
}

/* The content of <tag>..</tag> inside [p, end): *len bytes at the
 * result, NULL when absent. */
static const char *element(const char *p, const char *end, const char *tag, size_t *len)
{
    char open[48], close[48];
    snprintf(open, sizeof open, "<%s>", tag);
    snprintf(close, sizeof close, "</%s>", tag);
    const char *a = strstr(p, open);
    if (!a || a >= end)
        return NULL;
    a += strlen(open);
    const char *b = strstr(a, close);
    if (!b || b > end)
        return NULL;
    *len = (size_t)(b - a);
    return a;
}

typedef struct point {
    int64_t ts;
    double v;
    int host, metric;
} point;

typedef struct points {
    point *p;
    size_t n, cap;
    int hosts;
} points;

STABLE_SORT_DEFINE(sort_points, point, A.ts < B.ts)

/* The members of a <Timestamps> or <Values> list, in order, into out
 * (times when ts, else numbers); returns how many, at most cap. */
static size_t list_items(const char *p, size_t len, int ts, point *out, size_t cap)
{
    const char *end = p + len;
    size_t n = 0;
    for (const char *m = strstr(p, "<member>"); m && m < end && n < cap;
         m = strstr(m + 8, "<member>")) {
        char buf[48];
        const char *c = m + 8, *e = strstr(c, "</member>");
        if (!e || e > end)
            break;
        snprintf(buf, sizeof buf, "%.*s", (int)(e - c < 47 ? e - c : 47), c);
        if (ts)
            out[n++].ts = s3_xml_parse_time(buf);
        else
            out[n++].v = strtod(buf, NULL);
    }
    return n;
}

static size_t count_members(const char *p, size_t len)
{
    size_t n = 0;
    for (const char *m = strstr(p, "<member>"); m && m < p + len; m = strstr(m + 8, "<member>"))
        n++;
    return n;
}

/* One result's points (its content [p, end)) onto all. 0, or -1 on OOM. */
static int read_result(const char *p, const char *end, points *all)
{
    size_t il = 0, tl = 0, vl = 0;   /* element() sets them when it finds one */
    const char *id = element(p, end, "Id", &il);
    const char *ts = element(p, end, "Timestamps", &tl);
    const char *vs = element(p, end, "Values", &vl);
    int host, m;
    char idbuf[32];
    if (!id || !ts || !vs || il >= sizeof idbuf)
        return 0;
    snprintf(idbuf, sizeof idbuf, "%.*s", (int)il, id);
    if (sscanf(idbuf, "h%d_%d", &host, &m) != 2 || host < 1 || m < 0 ||
        m >= CW_ANSWER_METRICS || (all->hosts > 0 && host > all->hosts))
        return 0;
    size_t n = count_members(ts, tl);
    point *vals = calloc(n ? n : 1, sizeof *vals);
    if (!vals || vec_grow(&all->p, &all->cap, all->n + n + 1, sizeof *all->p, 256) != 0) {
        free(vals);
        return -1;
    }
    point *pts = all->p + all->n;
    memset(pts, 0, (n ? n : 1) * sizeof *pts);
    size_t nt = list_items(ts, tl, 1, pts, n);
    size_t nv = list_items(vs, vl, 0, vals, n);
    size_t k = nt < nv ? nt : nv, kept = 0;
    for (size_t i = 0; i < k; i++)
        if (pts[i].ts > 0 && isfinite(vals[i].v))
            pts[kept++] = (point){pts[i].ts, vals[i].v, host, m};
    free(vals);   /* newest first, as CloudWatch answers: cw_answer_points sorts */
    all->n += kept;
    return 0;
}

/* Every result of the <MetricDataResults> at [res, rend) onto all. */
static int read_results(const char *res, const char *rend, points *all)
{
    const char *p = res;
    for (const char *m = strstr(p, "<member>"); m && m < rend; m = strstr(p, "<member>")) {
        const char *e = member_end(m + 8);
        if (!e || e > rend)
            break;
        if (read_result(m + 8, e, all) != 0)
            return -1;
        p = e + 9;
    }
    return 0;
}

long cw_answer_points(const char *xml, size_t len, int hosts, cw_answer_point_fn fn, void *ud)
{
    const char *end = xml + len;
    points all = {NULL, 0, 0, hosts};
    size_t rl;
    for (const char *p = xml, *res; (res = element(p, end, "MetricDataResults", &rl));
         p = res + rl)
        if (read_results(res, res + rl, &all) != 0) {
            free(all.p);
            return -1;
        }
    point *tmp = malloc((all.n ? all.n : 1) * sizeof *tmp);
    if (!tmp) {
        free(all.p);
        return -1;
    }
    sort_points(all.p, tmp, all.n);
    free(tmp);
    for (size_t i = 0; i < all.n; i++)
        fn(ud, all.p[i].host, all.p[i].metric, all.p[i].ts, all.p[i].v);
    free(all.p);
    return (long)all.n;
}

int cw_answer_sample(const cw_answer_job *j, int host, int metric, int64_t ts_us, double v,
                     char *node, size_t node_cap, sm_sample *s)
{
    /* type, dimension, name; known type first, then raw sums */
    static const char *const known[CW_ANSWER_METRICS][3] = {
        {"gpu", "GPUUtilization", "gpu"}, {"gpu", "GPUMemoryUtilization", "gpu"},
        {"cpu", "CPUUtilization", "cpu"}, {"memory", "MemoryUsedPercent", "MemoryUsedPercent"},
        {"disk", "DiskUtilization", "disk"}};
    static const char *const raw[3][3] = {{"cloudwatch", "raw", "gpu raw"},
                                          {"cloudwatch", "raw", "gmem raw"},
                                          {"cloudwatch", "raw", "cpu raw"}};
    if (metric < 0 || metric >= CW_ANSWER_METRICS || !isfinite(v))
        return -1;
    const char *const *k = known[metric];
    if (metric <= 2 && !j->known)
        k = raw[metric];
    else if (metric <= 1 && j->gpus <= 0)
        return -1;   /* no GPUs: CloudWatch has nothing to say */
    else if (metric <= 1)
        v /= j->gpus;
    else if (metric == 2)
        v /= j->vcpus;
    snprintf(node, node_cap, "algo-%d", host);
    *s = (sm_sample){.type = sm_str_c(k[0]), .dimension = sm_str_c(k[1]),
                     .name = sm_str_c(k[2]), .node = sm_str_c(node), .value = v,
                     .ts_us = ts_us};
    return 0;
}

#define KEY_HEAD "cloudwatch/GetMetricData?type="

char *cw_answer_key(const char *instance_type, int groups, int hosts, int period_s,
                    char *out, size_t cap)
{
    snprintf(out, cap, KEY_HEAD "%.63s&groups=%d&hosts=%d&period=%d",
             instance_type ? instance_type : "", groups, hosts, period_s);
    return out;
}

int cw_answer_key_parse(const char *key, char *type, size_t type_cap, int *groups, int *hosts,
                        int *period_s)
{
    size_t hl = strlen(KEY_HEAD);
    if (strncmp(key, KEY_HEAD, hl))
        return -1;
    const char *amp = strchr(key + hl, '&');
    if (!amp || (size_t)(amp - key - hl) >= type_cap ||
        sscanf(amp, "&groups=%d&hosts=%d&period=%d", groups, hosts, period_s) != 3)
        return -1;
    snprintf(type, type_cap, "%.*s", (int)(amp - key - hl), key + hl);
    return 0;
}
