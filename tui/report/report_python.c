/* report_python: options and the JSON section (see report_python.h). The
 * text rendering is in report_python_text.c. */
#include "tui/report/report_python.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "tui/text/sanitize.h"

void report_python_opts_init(report_python_opts *o)
{
    memset(o, 0, sizeof *o);
    o->sort = PYSORT_TOTTIME;
    o->top = 20;
    pystats_select_all(&o->sel, PYPROF_CPROFILE);
}

const char *report_python_help(void)
{
    return "  --python-sort KEY  order of the Python functions: tottime (default),\n"
           "                   cumtime, ncalls, pcalls, tpercall, cpercall\n"
           "  --top N          how many Python functions to list (default 20)\n"
           "  --python-node NODE    only this node's Python stats\n"
           "  --python-steps A:B    only the windows of steps A..B (a window within\n"
           "                   them), of TRAIN mode unless --python-mode says\n"
           "                   otherwise: smdebug's fetch_profile_stats_by_step\n"
           "  --python-mode MODE    only windows of this mode: train, eval, predict,\n"
           "                   global, or any (the default without --python-steps)\n"
           "  --python-phase PHASE  before (step 0), training, or after (hook closed)\n";
}

static int parse_i64(const char *s, int64_t *out)
{
    char *end;
    errno = 0;
    long long v = strtoll(s, &end, 10);
    if (errno || end == s || *end)
        return -1;
    *out = v;
    return 0;
}

static int parse_mode(report_python_opts *o, const char *v, sm_err *err)
{
    static const pystats_mode modes[] = {PYMODE_TRAIN, PYMODE_EVAL, PYMODE_PREDICT,
                                         PYMODE_GLOBAL};
    o->mode_given = 1;
    if (!strcmp(v, "any")) {
        o->sel.mode = PYMODE_NONE;
        return 1;
    }
    for (size_t k = 0; k < sizeof modes / sizeof *modes; k++)
        if (!strcmp(v, pystats_mode_name(modes[k]))) {
            o->sel.mode = modes[k];
            return 1;
        }
    return sm_err_set(err, SM_ERR_USAGE, "--python-mode: use train, eval, predict, global "
                      "or any, got '%s'", v);
}

static int parse_value(report_python_opts *o, const char *opt, const char *v, sm_err *err)
{
    int64_t n, m;
    if (!strcmp(opt, "--python-sort")) {
        if (pystats_sort_parse(v, &o->sort) < 0)
            return sm_err_set(err, SM_ERR_USAGE, "--python-sort: unknown key '%s' (use "
                              "tottime, cumtime, ncalls, pcalls, tpercall or cpercall)", v);
    } else if (!strcmp(opt, "--top")) {
        if (parse_i64(v, &n) < 0 || n < 1 || n > 1000000)
            return sm_err_set(err, SM_ERR_USAGE, "--top needs a count from 1, got '%s'", v);
        o->top = (size_t)n;
    } else if (!strcmp(opt, "--python-node")) {
        o->sel.node = v;
    } else if (!strcmp(opt, "--python-steps")) {
        const char *colon = strchr(v, ':');
        char a[32];
        if (!colon || (size_t)(colon - v) >= sizeof a)
            return sm_err_set(err, SM_ERR_USAGE, "--python-steps needs A:B, got '%s'", v);
        memcpy(a, v, (size_t)(colon - v));
        a[colon - v] = '\0';
        if (parse_i64(a, &n) < 0 || parse_i64(colon + 1, &m) < 0 || n > m)
            return sm_err_set(err, SM_ERR_USAGE, "--python-steps needs A:B with A <= B, "
                              "got '%s'", v);
        o->sel.step_lo = n;
        o->sel.step_hi = m;
        if (!o->mode_given)
            o->sel.mode = PYMODE_TRAIN;   /* step numbers count per mode */
    } else if (!strcmp(opt, "--python-mode")) {
        return parse_mode(o, v, err);
    } else {
        static const struct { const char *w; unsigned bit; } ph[] = {
            {"before", PYJOB_BEFORE_STEP0}, {"training", PYJOB_TRAINING},
            {"after", PYJOB_AFTER_CLOSE}};
        for (size_t k = 0; k < sizeof ph / sizeof *ph; k++)
            if (!strcmp(v, ph[k].w)) {
                o->sel.jobphases |= ph[k].bit;
                return 1;
            }
        return sm_err_set(err, SM_ERR_USAGE, "--python-phase: use before, training or "
                          "after, got '%s'", v);
    }
    return 1;
}

int report_python_parse_arg(report_python_opts *o, int argc, char **argv, int *i,
                            sm_err *err)
{
    static const char *const opts[] = {"--python-sort", "--top", "--python-node",
                                       "--python-steps", "--python-mode", "--python-phase"};
    const char *arg = argv[*i];
    for (size_t k = 0; k < sizeof opts / sizeof *opts; k++) {
        if (strcmp(arg, opts[k]) != 0)
            continue;
        if (*i + 1 >= argc)
            return sm_err_set(err, SM_ERR_USAGE, "%s needs a value", arg);
        int rc = parse_value(o, arg, argv[*i + 1], err);
        if (rc > 0)
            (*i)++;
        return rc;
    }
    return 0;
}

/* ---- JSON ---- */

/* Data strings are bytes; JSON needs UTF-8: invalid input is sanitized. */
static json_t *jstr(const char *s)
{
    json_t *j = json_string(s);
    if (j)
        return j;
    char buf[1024];
    sanitize_str(s, buf, sizeof buf, -1);
    return json_string(buf);
}

static json_t *jword(const char *s)
{
    return s[0] ? json_string(s) : json_null();
}

static json_t *jstep(int64_t step)
{
    return step == PYSTATS_NO_STEP ? json_null() : json_integer(step);
}

static const char *jobphase_name(unsigned bit)
{
    return bit == PYJOB_BEFORE_STEP0 ? "before_step0"
         : bit == PYJOB_AFTER_CLOSE  ? "after_hook_close" : "training";
}

static json_t *window_json(const pystats_window *w, int failed)
{
    return json_pack("{s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:I, s:I, s:s, s:b}",
                     "node", jstr(w->node), "framework", jstr(w->framework),
                     "start_step", jstep(w->start_step), "end_step", jstep(w->end_step),
                     "start_mode", jword(pystats_mode_name(w->start_mode)),
                     "end_mode", jword(pystats_mode_name(w->end_mode)),
                     "start_phase", jword(pystats_phase_name(w->start_phase)),
                     "end_phase", jword(pystats_phase_name(w->end_phase)),
                     "start_us", (json_int_t)w->start_us, "end_us", (json_int_t)w->end_us,
                     "job_phase", jobphase_name(pystats_window_jobphase(w)),
                     "failed", failed);
}

/* pyinstrument samples the stack: it counts no calls, so call counts and
 * per-call times do not apply (null, not 0). */
static json_t *calls_json(int counted, json_int_t n)
{
    return counted ? json_integer(n) : json_null();
}

static json_t *per_call_json(int counted, double v)
{
    return counted ? json_real(v) : json_null();
}

static json_t *func_json(const pystats_func *f, int counted)
{
    char buf[2048];
    pystats_func_format(f, buf, sizeof buf);
    return json_pack("{s:o, s:o, s:I, s:o, s:o, s:o, s:f, s:f, s:o, s:o}",
                     "function", jstr(buf), "file", jstr(f->file), "line", (json_int_t)f->line,
                     "name", jstr(f->name), "ncalls", calls_json(counted, f->c.ncalls),
                     "pcalls", calls_json(counted, f->c.pcalls), "tottime_s", f->c.tottime,
                     "cumtime_s", f->c.cumtime,
                     "tpercall_s", per_call_json(counted, pystats_func_sort_value(f, PYSORT_TPERCALL)),
                     "cpercall_s", per_call_json(counted, pystats_func_sort_value(f, PYSORT_CPERCALL)));
}

static int pick_profiler(const pystats_store *s, pystats_profiler *out)
{
    int seen[2] = {0, 0};
    for (size_t i = 0; i < pystats_store_window_count(s); i++)
        seen[pystats_store_window_at(s, i, NULL, NULL)->profiler == PYPROF_PYINSTRUMENT] = 1;
    if (!seen[0] && !seen[1])
        return -1;
    *out = seen[0] ? PYPROF_CPROFILE : PYPROF_PYINSTRUMENT;
    return 0;
}

static json_t *section_json(const pystats_result *r, pystats_profiler p,
                            const report_python_opts *o)
{
    json_t *wins = json_array(), *top = json_array();
    for (size_t i = 0; i < pystats_result_window_count(r); i++) {
        int failed;
        const pystats_window *w = pystats_result_window_at(r, i, &failed);
        json_array_append_new(wins, window_json(w, failed));
    }
    size_t n = pystats_result_count(r) < o->top ? pystats_result_count(r) : o->top;
    int counted = p == PYPROF_CPROFILE;
    for (size_t i = 0; i < n; i++)
        json_array_append_new(top, func_json(pystats_result_at(r, i), counted));
    pystats_call t = pystats_result_total(r);
    return json_pack("{s:s, s:s, s:I, s:o, s:o, s:f, s:I, s:o, s:o}",
                     "profiler", p == PYPROF_CPROFILE ? "cprofile" : "pyinstrument",
                     "sort", pystats_sort_name(o->sort),
                     "functions", (json_int_t)pystats_result_count(r),
                     "total_calls", calls_json(counted, t.ncalls),
                     "primitive_calls", calls_json(counted, t.pcalls), "total_tt_s", t.tottime,
                     "failed_sessions", (json_int_t)pystats_result_failed_count(r),
                     "windows", wins, "top", top);
}

int report_python_add(json_t *obj, const pystats_store *s, const report_python_opts *o,
                      sm_err *err)
{
    pystats_profiler p;
    if (pick_profiler(s, &p) < 0)
        return json_object_set_new(obj, "python", json_null()) == 0
                   ? 0 : sm_err_set(err, SM_ERR_NOMEM, "out of memory");
    pystats_select sel = o->sel;
    sel.profiler = p;
    pystats_result *r = pystats_store_query(s, &sel, err);
    if (!r)
        return -1;
    pystats_result_sort(r, o->sort);
    json_t *sec = section_json(r, p, o);
    pystats_result_free(r);
    if (!sec || json_object_set_new(obj, "python", sec) != 0)
        return sm_err_set(err, SM_ERR_NOMEM, "out of memory building the Python report");
    return 0;
}
