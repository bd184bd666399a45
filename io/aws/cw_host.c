/* cw_host: per-host CloudWatch metrics as system samples; see cw_host.h. */
#include "io/aws/cw_host.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "io/aws/cloudwatch.h"
#include "io/aws/s3_xml.h"
#include "model/jobs/instance_types.h"
#include "model/util/stable_sort.h"

#define MAX_PAGES 64        /* a job's answer: 100,800 points a page */

static const char *const metric_names[CW_HOST_METRICS] = {
    "GPUUtilization", "GPUMemoryUtilization", "CPUUtilization", "MemoryUtilization",
    "DiskUtilization"};

void cw_host_job_type(cw_host_job *j, const char *instance_type, int groups)
{
    j->gpus = j->vcpus = 0;
    j->known = groups <= 1 && instance_types_lookup(instance_type, &j->gpus, &j->vcpus) &&
               j->vcpus > 0;
}

int cw_host_period(double end_s, double now_s)
{
    double age = now_s - end_s;
    return age < 15 * 86400.0 ? 60 : age < 63 * 86400.0 ? 300 : 3600;
}

static int put_query(s3_param *p, long *n, int k, const cw_host_job *j, int host, int m,
                     int period_s)
{
    char id[32], dim[320];
    snprintf(id, sizeof id, "h%d_%d", host, m);
    snprintf(dim, sizeof dim, "%.250s/algo-%d", j->name, host);
    return cloudwatch_add_metric(p, n, k, id, metric_names[m], dim, period_s);
}

long cw_host_params(const cw_host_job *j, int first, int n, int period_s, double t0_s,
                    double t1_s, const char *next_token, s3_param **params)
{
    s3_param *p = calloc((size_t)n * CW_HOST_METRICS * CLOUDWATCH_METRIC_FIELDS + 3, sizeof *p);
    long k = 0;
    int bad = !p;
    char t0[32], t1[32];
    cloudwatch_iso_time(t0_s, t0, sizeof t0);
    cloudwatch_iso_time(t1_s, t1, sizeof t1);
    for (int h = 0; !bad && h < n; h++)
        for (int m = 0; !bad && m < CW_HOST_METRICS; m++)
            bad = put_query(p, &k, h * CW_HOST_METRICS + m + 1, j, first + h + 1, m,
                            period_s) != 0;
    if (!bad)
        bad = cloudwatch_param_put(p, &k, "StartTime", t0) | cloudwatch_param_put(p, &k, "EndTime", t1);
    if (!bad && next_token && *next_token)
        bad = cloudwatch_param_put(p, &k, "NextToken", next_token);
    if (bad) {
        cloudwatch_params_free(p, k);
        return -1;
    }
    *params = p;
    return k;
}

/* ---- the answer ------------------------------------------------------ */

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
} point;

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

/* One result (its content [p, end)) to fn. 0, or -1 on OOM. */
static long read_result(const char *p, const char *end, cw_host_point_fn fn, void *ud)
{
    size_t il, tl, vl;
    const char *id = element(p, end, "Id", &il);
    const char *ts = element(p, end, "Timestamps", &tl);
    const char *vs = element(p, end, "Values", &vl);
    int host, m;
    char idbuf[32];
    if (!id || !ts || !vs || il >= sizeof idbuf)
        return 0;
    snprintf(idbuf, sizeof idbuf, "%.*s", (int)il, id);
    if (sscanf(idbuf, "h%d_%d", &host, &m) != 2 || host < 1 || m < 0 || m >= CW_HOST_METRICS)
        return 0;
    size_t n = count_members(ts, tl);
    point *pts = calloc(n ? n : 1, sizeof *pts);
    if (!pts)
        return -1;
    size_t nt = list_items(ts, tl, 1, pts, n);
    point *vals = calloc(n ? n : 1, sizeof *vals);
    if (!vals) {
        free(pts);
        return -1;
    }
    size_t nv = list_items(vs, vl, 0, vals, n);
    size_t k = nt < nv ? nt : nv;
    for (size_t i = 0; i < k; i++)
        pts[i].v = vals[i].v;
    /* CloudWatch answers newest first (TimestampDescending) */
    sort_points(pts, vals, k);
    free(vals);
    long got = 0;
    for (size_t i = 0; i < k; i++)
        if (pts[i].ts > 0 && isfinite(pts[i].v)) {
            fn(ud, host, m, pts[i].ts, pts[i].v);
            got++;
        }
    free(pts);
    return got;
}

long cw_host_read(const char *xml, size_t len, cw_host_point_fn fn, void *ud, char *next,
                  size_t next_cap)
{
    const char *end = xml + len;
    size_t tl;
    const char *tok = element(xml, end, "NextToken", &tl);
    /* a result's own NextToken does not exist; the answer's follows them */
    snprintf(next, next_cap, "%.*s", tok && tl < next_cap ? (int)tl : 0, tok ? tok : "");
    size_t rl;
    const char *res = element(xml, end, "MetricDataResults", &rl);
    if (!res)
        return 0;
    const char *p = res, *rend = res + rl;
    long total = 0;
    for (const char *m = strstr(p, "<member>"); m && m < rend; m = strstr(p, "<member>")) {
        const char *e = member_end(m + 8);
        if (!e || e > rend)
            break;
        long got = read_result(m + 8, e, fn, ud);
        if (got < 0)
            return -1;
        total += got;
        p = e + 9;
    }
    return total;
}

int cw_host_sample(const cw_host_job *j, int host, int metric, int64_t ts_us, double v,
                   char *node, size_t node_cap, sm_sample *s)
{
    /* type, dimension, name; known type first, then raw sums */
    static const char *const known[CW_HOST_METRICS][3] = {
        {"gpu", "GPUUtilization", "gpu"}, {"gpu", "GPUMemoryUtilization", "gpu"},
        {"cpu", "CPUUtilization", "cpu"}, {"memory", "MemoryUsedPercent", "MemoryUsedPercent"},
        {"disk", "DiskUtilization", "disk"}};
    static const char *const raw[3][3] = {{"cloudwatch", "raw", "gpu raw"},
                                          {"cloudwatch", "raw", "gmem raw"},
                                          {"cloudwatch", "raw", "cpu raw"}};
    if (metric < 0 || metric >= CW_HOST_METRICS || !isfinite(v))
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

/* One call (one page of one batch of hosts); its NextToken into next. */
static long fetch_page(aws_api *cw, const cw_host_job *j, int first, int n, int period_s,
                       double t0_s, double t1_s, char *next, size_t next_cap,
                       cw_host_point_fn fn, void *ud, sm_err *err)
{
    s3_param *p = NULL;
    long np = cw_host_params(j, first, n, period_s, t0_s, t1_s, next, &p);
    if (np < 0)
        return sm_err_set(err, SM_ERR_NOMEM, "out of memory");
    size_t len = 0;
    char *xml = cloudwatch_get_metric_data(cw, p, (size_t)np, &len, err);
    cloudwatch_params_free(p, np);
    if (!xml)
        return -1;
    long got = cw_host_read(xml, len, fn, ud, next, next_cap);
    free(xml);
    return got < 0 ? sm_err_set(err, SM_ERR_NOMEM, "out of memory") : got;
}

long cw_host_fetch(aws_api *cw, const cw_host_job *j, int period_s, double t0_s,
                   double t1_s, cw_host_point_fn fn, void *ud, sm_err *err)
{
    int hosts = j->hosts < CW_HOST_MAX ? j->hosts : CW_HOST_MAX;
    long total = 0;
    for (int first = 0; first < hosts; first += CW_HOST_PER_CALL) {
        int n = hosts - first < CW_HOST_PER_CALL ? hosts - first : CW_HOST_PER_CALL;
        char next[1024] = "";
        for (int page = 0; page < MAX_PAGES; page++) {
            long got = fetch_page(cw, j, first, n, period_s, t0_s, t1_s, next, sizeof next,
                                  fn, ud, err);
            if (got < 0)
                return -1;
            total += got;
            if (!next[0])
                break;
        }
    }
    return total;
}
