/* rule_report: see rule_report.h. */
#include "io/decode/rule_report.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "model/util/vec.h"

#define RR_MAX 64
#define RR_ERR_MAX 16
#define RR_MSG_CAP 600

struct rule_reports {
    rule_verdict v[RR_MAX];
    size_t n;
    char errs[RR_ERR_MAX][RR_MSG_CAP];
    size_t nerr;
};

static int get_count(const json_t *obj, const char *field, const char *key,
                     int required, int64_t *out, sm_err *err)
{
    json_t *f = json_object_get(obj, field);
    if (!f) {
        *out = 0;
        return required ? sm_err_set(err, SM_ERR_FORMAT, "%s: %s missing",
                                     key, field) : 0;
    }
    if (json_is_boolean(f)) {
        *out = json_is_true(f);
    } else if (json_is_number(f)) {
        *out = (int64_t)json_number_value(f);
    } else {
        return sm_err_set(err, SM_ERR_FORMAT, "%s: %s is not a number",
                          key, field);
    }
    return 0;
}

int rule_report_key_rule(const char *key, char *name, size_t cap)
{
    const char *pr = strstr(key, "ProfilerReport-");
    const char *dir = pr ? strstr(pr, "/profiler-reports/") : NULL;
    if (!dir)
        return 0;
    const char *base = dir + strlen("/profiler-reports/");
    size_t n = strlen(base);
    if (n <= 5 || strchr(base, '/') || strcmp(base + n - 5, ".json") != 0)
        return 0;
    n -= 5;
    if (n >= cap)
        return 0;
    memcpy(name, base, n);
    name[n] = 0;
    return 1;
}

int rule_verdict_parse(const char *key, const void *buf, size_t len,
                       rule_verdict *out, sm_err *err)
{
    memset(out, 0, sizeof *out);
    json_error_t je;
    json_t *root = json_loadb(buf, len, 0, &je);
    if (!root)
        return sm_err_set(err, SM_ERR_FORMAT, "%s: not JSON at line %d: %s",
                          key, je.line, je.text);
    rule_verdict v = {0};
    int rc = -1;
    if (!json_is_object(root)) {
        sm_err_set(err, SM_ERR_FORMAT, "%s: expected a JSON object with "
                   "RuleTriggered, Violations, Datapoints", key);
        goto done;
    }
    if (get_count(root, "RuleTriggered", key, 1, &v.triggered, err) < 0 ||
        get_count(root, "Violations", key, 0, &v.violations, err) < 0 ||
        get_count(root, "Datapoints", key, 0, &v.datapoints, err) < 0)
        goto done;
    json_t *d = json_object_get(root, "Details");
    if (d && !json_is_object(d)) {
        sm_err_set(err, SM_ERR_FORMAT, "%s: Details is not an object", key);
        goto done;
    }
    v.details = json_incref(d);
    v.parameters = json_incref(json_object_get(root, "RuleParameters"));
    if (!rule_report_key_rule(key, v.rule, sizeof v.rule)) {
        const char *base = strrchr(key, '/');
        snprintf(v.rule, sizeof v.rule, "%s", base ? base + 1 : key);
        char *dot = strrchr(v.rule, '.');
        if (dot)
            *dot = 0;
    }
    snprintf(v.key, sizeof v.key, "%s", key);
    *out = v;
    rc = 0;
done:
    json_decref(root);
    return rc;
}

void rule_verdict_clear(rule_verdict *v)
{
    json_decref(v->parameters);
    json_decref(v->details);
    memset(v, 0, sizeof *v);
}

typedef struct keylist {
    char (*keys)[512];
    size_t n, cap;
} keylist;

static int collect_key(void *ud, const source_entry *e)
{
    keylist *kl = ud;
    char name[64];
    if (e->error)
        return 0;
    if (!rule_report_key_rule(e->key, name, sizeof name) || strlen(e->key) >= 512)
        return 0;
    if (vec_grow(&kl->keys, &kl->cap, kl->n + 1, sizeof *kl->keys, 16) != 0)
        return 1;
    strcpy(kl->keys[kl->n++], e->key);
    return 0;
}

static void add_error(rule_reports *r, const char *msg)
{
    if (r->nerr < RR_ERR_MAX)
        snprintf(r->errs[r->nerr++], RR_MSG_CAP, "%s", msg);
}

/* Replaces an earlier verdict for the same rule (later key wins). */
static void store(rule_reports *r, rule_verdict *v)
{
    for (size_t i = 0; i < r->n; i++)
        if (strcasecmp(r->v[i].rule, v->rule) == 0) {
            rule_verdict_clear(&r->v[i]);
            r->v[i] = *v;
            return;
        }
    if (r->n < RR_MAX)
        r->v[r->n++] = *v;
    else
        rule_verdict_clear(v);
}

static void on_fetch(void *ud, const source_req *req, const void *data,
                     size_t len, const char *etag, const sm_err *ferr)
{
    (void)etag;
    rule_reports *r = ud;
    sm_err e = {0};
    rule_verdict v;
    if (ferr) {
        char msg[RR_MSG_CAP];
        snprintf(msg, sizeof msg, "%s: %s", req->key, ferr->msg);
        add_error(r, msg);
    } else if (rule_verdict_parse(req->key, data, len, &v, &e) < 0) {
        add_error(r, e.msg);
    } else {
        store(r, &v);
    }
}

rule_reports *rule_reports_load(source *src, const char *prefix, sm_err *err)
{
    rule_reports *r = calloc(1, sizeof *r);
    keylist kl = {0};
    if (!r)
        return sm_err_set(err, SM_ERR_NOMEM, "out of memory"), NULL;
    if (source_list(src, prefix, NULL, collect_key, &kl, err) < 0) {
        free(kl.keys);
        free(r);
        return NULL;
    }
    source_req *reqs = calloc(kl.n ? kl.n : 1, sizeof *reqs);
    if (!reqs) {
        free(kl.keys);
        free(r);
        return sm_err_set(err, SM_ERR_NOMEM, "out of memory"), NULL;
    }
    for (size_t i = 0; i < kl.n; i++)
        reqs[i] = (source_req){.key = kl.keys[i], .offset = 0, .len = -1};
    int rc = kl.n ? source_fetch(src, reqs, kl.n, on_fetch, r, err) : 0;
    free(reqs);
    free(kl.keys);
    if (rc < 0) {
        rule_reports_free(r);
        return NULL;
    }
    return r;
}

void rule_reports_free(rule_reports *r)
{
    if (!r)
        return;
    for (size_t i = 0; i < r->n; i++)
        rule_verdict_clear(&r->v[i]);
    free(r);
}

size_t rule_reports_count(const rule_reports *r) { return r ? r->n : 0; }

const rule_verdict *rule_reports_find(const rule_reports *r, const char *rule)
{
    for (size_t i = 0; r && i < r->n; i++)
        if (strcasecmp(r->v[i].rule, rule) == 0)
            return &r->v[i];
    return NULL;
}

size_t rule_reports_error_count(const rule_reports *r) { return r ? r->nerr : 0; }

const char *rule_reports_error_at(const rule_reports *r, size_t i)
{
    return r && i < r->nerr ? r->errs[i] : NULL;
}
