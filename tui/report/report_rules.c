/* report_rules: rule options, the rules config file and SageMaker's
 * rule-output lookup (JSON building: report_rules_json.c, text:
 * report_rules_text.c). */
#include "tui/report/report_rules.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tui/conf/conf_file.h"

int report_rules_parse_arg(report_rules_opts *o, int argc, char **argv, int *i,
                           sm_err *err)
{
    const char *a = argv[*i];
    if (!strcmp(a, "--no-rules-config")) {
        o->no_config = 1;
        return 1;
    }
    if (strcmp(a, "--rule") && strcmp(a, "--fail-on"))
        return 0;
    if (*i + 1 >= argc)
        return sm_err_set(err, SM_ERR_USAGE, "%s needs a value (%s)", a,
                          a[2] == 'r' ? "Name.param=value" : "RULE[,RULE]");
    const char *v = argv[++*i];
    if (a[2] == 'r') {
        rules *scratch = rules_new();   /* validate now: usage errors early */
        if (!scratch)
            return sm_err_set(err, SM_ERR_NOMEM, "out of memory");
        int rc = rules_apply_override(scratch, v, err);
        rules_free(scratch);
        if (rc < 0)
            return -1;
        if (o->n_overrides == REPORT_RULES_MAX_ARGS)
            return sm_err_set(err, SM_ERR_USAGE, "too many --rule options");
        o->overrides[o->n_overrides++] = v;
        return 1;
    }
    int rc = rules_parse_list(v, o->fail_on + o->n_fail_on,
                              REPORT_RULES_MAX_ARGS - o->n_fail_on, err);
    if (rc < 0)
        return -1;
    o->n_fail_on += (size_t)rc;
    return 1;
}

const char *report_rules_help(void)
{
    return "  --rule NAME.PARAM=VALUE  override a rule parameter (repeatable),\n"
           "                   e.g. --rule StepOutlier.stddev=4; also read from\n"
           "                   $XDG_CONFIG_HOME/smtop/rules.conf\n"
           "  --fail-on RULE[,RULE]  exit 3 when one of these rules triggers\n"
           "  --no-rules-config  ignore rules.conf\n";
}

int report_rules_configure(rules *r, const report_rules_opts *o, sm_err *err)
{
    char path[1024];
    if ((!o || !o->no_config) && conf_file_path("rules.conf", path, sizeof path) == 0) {
        size_t len = 0;
        int missing = 0;
        char *text = conf_file_read(path, &len, &missing, err);
        if (!text && !missing)
            return -1;
        int rc = text ? rules_apply_config(r, text, len, path, err) : 0;
        free(text);
        if (rc < 0)
            return -1;
    }
    for (size_t i = 0; o && i < o->n_overrides; i++)
        if (rules_apply_override(r, o->overrides[i], err) < 0)
            return -1;
    return 0;
}

rules *report_rules_new_configured(const report_rules_opts *o, sm_err *err)
{
    rules *r = rules_new();
    if (!r) {
        sm_err_set(err, SM_ERR_NOMEM, "out of memory");
        return NULL;
    }
    if (report_rules_configure(r, o, err) < 0) {
        rules_free(r);
        return NULL;
    }
    return r;
}

/* spec without its trailing "profiler-output" component (and slashes), or
 * 0 when spec does not end in it. */
static int parent_spec(const char *spec, char *out, size_t cap)
{
    size_t n = strlen(spec);
    while (n > 1 && spec[n - 1] == '/')
        n--;
    const size_t k = strlen("profiler-output");
    if (n < k || strncmp(spec + n - k, "profiler-output", k) != 0 ||
        (n > k && spec[n - k - 1] != '/'))
        return 0;
    n -= k;
    if (n == 0) {
        snprintf(out, cap, ".");
        return 1;
    }
    if (n + 1 > cap)
        return 0;
    memcpy(out, spec, n);
    out[n] = 0;
    return 1;
}

rule_reports *report_rules_sagemaker(source *src, const char *spec,
                                     const source_opts *so, sm_err *err)
{
    rule_reports *rr = rule_reports_load(src, "rule-output/", err);
    char parent[2048];
    if (!rr || rule_reports_count(rr) || rule_reports_error_count(rr) ||
        !parent_spec(spec, parent, sizeof parent))
        return rr;
    sm_err e2 = {0};
    source *ps = source_open(parent, so, &e2);
    if (!ps)
        return rr;   /* no readable parent: the job simply has no rule-output here */
    rule_reports *rp = rule_reports_load(ps, "rule-output/", &e2);
    source_free(ps);
    if (!rp)
        return rr;
    rule_reports_free(rr);
    return rp;
}

int report_rules_failed(const rules *r, const report_rules_opts *o)
{
    for (size_t i = 0; o && i < o->n_fail_on; i++) {
        const rule_result *res = rules_result_at(r, (size_t)o->fail_on[i]);
        if (res && res->status == RULE_TRIGGERED)
            return 1;
    }
    return 0;
}

int report_rules_run(json_t *obj, job *j, const char *spec,
                     const source_opts *so, const report_rules_opts *o,
                     report_stream *st, sm_err *err)
{
    rules *r = report_rules_new_configured(o, err);
    if (!r)
        return -1;
    sm_err serr = {0};
    rule_reports *sm = report_rules_sagemaker(job_source(j), spec, so, &serr);
    pthread_mutex_lock(job_lock(j));
    /* The rules on the pass's threads first: report_rules_add then finds
     * every result current. */
    int rc = report_rules_evaluate(r, job_model(j), job_threads(j)) < 0
                 ? sm_err_set(err, SM_ERR_NOMEM, "out of memory evaluating rules")
                 : report_rules_add(obj, job_model(j), r, sm, st, job_threads(j), err);
    pthread_mutex_unlock(job_lock(j));
    if (rc == 0 && !sm)   /* SageMaker's verdicts are extra: note, go on */
        json_object_set_new(obj, "rule_output_errors",
                            json_pack("[s]", serr.msg[0] ? serr.msg
                                      : "rule-output could not be listed"));
    if (rc == 0)
        rc = report_rules_failed(r, o);
    rule_reports_free(sm);
    rules_free(r);
    return rc;
}
