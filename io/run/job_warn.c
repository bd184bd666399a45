/* job_warn: the job's warnings for every surface; see job_warn.h. */
#include "io/run/job_warn.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/decode/keyname.h"
#include "io/decode/kineto_decode.h"
#include "io/run/job_watch.h"
#include "io/run/kineto_ingest.h"
#include "model/view/freshness.h"

/* A trace not read: named as one, or another JSON (HTA's sample names)
 * that was not found to be something else. */
static int is_trace(const char *key, const char *why)
{
    key_info ki;
    keyname_parse(key, &ki);
    return ki.kind == KEY_KINETO ||
           (ki.kind == KEY_KINETO_MAYBE && !strstr(why, KINETO_NOT_A_TRACE));
}

typedef struct count_ctx {
    int64_t traces;
} count_ctx;

static void count_trace(void *ud, const char *key, const char *why)
{
    ((count_ctx *)ud)->traces += is_trace(key, why);
}

static void add_stats(scanner *sc, job_warn_counts *out, count_ctx *c)
{
    scan_stats st;
    scanner_get_stats(sc, &st);
    out->corrupt_lines += st.corrupt_lines;
    out->partial_lines += st.partial_lines;
    out->skipped_files += st.skipped_files;
    out->lines += st.lines;
    out->bytes_read += st.bytes_read;
    out->noted += st.messages < SCANNER_MSG_MAX ? st.messages : SCANNER_MSG_MAX;
    out->unread_files += (int64_t)scanner_unread(sc, count_trace, c);
}

void job_warn_get_counts(job *j, job_warn_counts *out)
{
    count_ctx c = {0};
    *out = (job_warn_counts){0};
    add_stats(job_scanner(j), out, &c);
    if (job_traces_scanner(j))
        add_stats(job_traces_scanner(j), out, &c);
    out->traces_unread = c.traces;
    out->traces_read = job_traces_read(j);
}

typedef struct lines_ctx {
    job_warn_line_fn line;
    job_warn_unread_fn unread;
    void *ud;
    const char *prefix;      /* --traces PATH/ before its keys, "" for the job's */
    size_t n;
} lines_ctx;

static void say_unread(void *ud, const char *key, const char *why)
{
    lines_ctx *c = ud;
    char full[1024], line[SCANNER_MSG_LEN + 1200];
    snprintf(full, sizeof full, "%s%s", c->prefix, key);
    snprintf(line, sizeof line, "%.250s: %.600s", full, why);
    if (c->line)
        c->line(c->ud, line);
    if (c->unread)
        c->unread(c->ud, full, why);
    c->n++;
}

/* sc's noted problems, then its files not read, keys under prefix. */
static void scanner_lines(scanner *sc, const char *prefix, int ended, lines_ctx *c)
{
    char (*msgs)[SCANNER_MSG_LEN] = malloc(SCANNER_MSG_MAX * sizeof *msgs);
    size_t n = msgs ? scanner_messages(sc, msgs, SCANNER_MSG_MAX) : 0;
    for (size_t i = 0; i < n; i++) {
        char line[SCANNER_MSG_LEN + 1100];
        snprintf(line, sizeof line, "%s%s", prefix, msgs[i]);
        if (c->line)
            c->line(c->ud, line);
        c->n++;
    }
    free(msgs);
    c->prefix = prefix;
    scanner_unread_at(sc, ended, say_unread, c);
}

size_t job_warn_lines(job *j, int ended, job_warn_line_fn line, job_warn_unread_fn unread,
                      void *ud)
{
    lines_ctx c = {line, unread, ud, "", 0};
    scanner_lines(job_scanner(j), "", ended, &c);
    scanner *tsc = job_traces_scanner(j);
    if (tsc) {
        char prefix[1024];
        snprintf(prefix, sizeof prefix, "%s/", job_traces_describe(j));
        scanner_lines(tsc, prefix, ended, &c);
    }
    return c.n;
}

int job_warn_ended(job *j, int64_t now_us)
{
    jobrow r;
    job_watch *w = job_get_watch(j);
    if (w && job_watch_row(w, &r) && r.status[0])
        return jobrow_ended(&r);
    freshness_in in;
    pthread_mutex_lock(job_lock(j));
    freshness_read(job_model(j), &in);
    pthread_mutex_unlock(job_lock(j));
    return freshness_judge(&in, now_us, 0) == FRESH_ENDED;
}

void job_warn_count_traces(job *j)
{
    count_ctx c = {0};
    scanner_unread(job_scanner(j), count_trace, &c);
    if (job_traces_scanner(j))
        scanner_unread(job_traces_scanner(j), count_trace, &c);
    int64_t read = job_traces_read(j);
    pthread_mutex_lock(job_lock(j));
    model_set_trace_files(job_model(j), read, c.traces);
    pthread_mutex_unlock(job_lock(j));
}
