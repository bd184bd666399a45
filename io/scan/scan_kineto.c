/* scan_kineto: see scan_kineto.h. The listings skip what the scanner
 * lists itself, and what holds no traces, by key ranges: a listing from
 * a start-after key that stops at its first key past a bound, so a job
 * with a day of system minutes costs nothing more per pass. */
#include "io/scan/scan_kineto.h"

#include <stdio.h>
#include <string.h>

#define TB_DIR "tensorboard-output/"

typedef struct klist {
    source_list_cb cb;
    void *ud;
    const char *stop;       /* first key (absolute) past the range, NULL none */
    size_t rl;              /* root length: keys shorter or outside are job-level */
    const char *root;
    int stopped;            /* cb asked to stop */
} klist;

/* Whether a job-level key (outside profiler-output/) is worth handing on:
 * a trace by name anywhere, another JSON only in tensorboard-output/. */
static int job_level_wanted(const char *key, const key_info *ki)
{
    if (ki->kind == KEY_KINETO)
        return 1;
    return !strncmp(key, TB_DIR, strlen(TB_DIR)) && keyname_kineto_candidate(key);
}

static int klist_cb(void *ud, const source_entry *se)
{
    klist *k = ud;
    if (k->stop && strcmp(se->key, k->stop) >= 0)
        return 1;
    int inside = !strncmp(se->key, k->root, k->rl);
    const char *rel = inside ? se->key + k->rl : se->key;
    if (se->error)   /* an unlisted folder: traces may be anywhere in the job */
        goto pass;
    key_info ki;
    keyname_parse(rel, &ki);
    if (inside ? ki.kind != KEY_KINETO && !keyname_kineto_candidate(rel)
               : !job_level_wanted(rel, &ki))
        return 0;
pass:
    if (k->cb(k->ud, se)) {
        k->stopped = 1;
        return 1;
    }
    return 0;
}

/* Lists prefix from `after` (NULL: the start) up to `stop` (NULL: the end). */
static int list_range(source *src, klist *k, const char *prefix, const char *after,
                      const char *stop, sm_err *err)
{
    if (k->stopped)
        return 0;
    k->stop = stop;
    return source_list(src, prefix, after, klist_cb, k, err);
}

int scan_kineto_list(source *src, const char *root, source_list_cb cb, void *ud, sm_err *err)
{
    klist k = {cb, ud, NULL, strlen(root), root, 0};
    char fw[512], fw_after[512], sys[512], sys_after[512], root_after[512];
    snprintf(fw, sizeof fw, "%sframework/", root);
    snprintf(fw_after, sizeof fw_after, "%sframework0", root);   /* '0' follows '/' */
    snprintf(sys, sizeof sys, "%ssystem/", root);
    snprintf(sys_after, sizeof sys_after, "%ssystem0", root);
    if (list_range(src, &k, root, NULL, fw, err) || list_range(src, &k, root, fw_after, sys, err) ||
        list_range(src, &k, root, sys_after, NULL, err))
        return -1;
    if (!root[0])
        return 0;
    /* the job directory around profiler-output/ */
    snprintf(root_after, sizeof root_after, "%.*s0", (int)(k.rl - 1), root);
    if (list_range(src, &k, "", NULL, "debug-output/", err) ||
        list_range(src, &k, "", "debug-output0", root, err) ||
        list_range(src, &k, "", root_after, "rule-output/", err) ||
        list_range(src, &k, "", "rule-output0", NULL, err))
        return -1;
    return 0;
}

void scan_kineto_classify(const char *rel, key_info *ki)
{
    if (ki->kind == KEY_OTHER && keyname_kineto_candidate(rel))
        ki->kind = KEY_KINETO_MAYBE;
}

typedef struct kprobe {
    int found;
} kprobe;

static int kprobe_cb(void *ud, const source_entry *se)
{
    kprobe *p = ud;
    if (se->error)
        return 0;
    key_info ki;
    keyname_parse(se->key, &ki);
    if (ki.kind == KEY_KINETO || keyname_kineto_candidate(se->key)) {
        p->found = 1;
        return 1;
    }
    return 0;
}

int scan_kineto_probe(source *src, char *root, size_t cap, sm_err *err)
{
    kprobe p = {0};
    if (source_list(src, TB_DIR, NULL, kprobe_cb, &p, err) != 0)
        return -1;
    if (p.found) {
        snprintf(root, cap, "profiler-output/");
        return 1;
    }
    /* a folder of traces, or of JSON that may be: each is then read or
     * named, which says more than "no profiler data" */
    if (source_list(src, "", NULL, kprobe_cb, &p, err) != 0)
        return -1;
    if (p.found)
        snprintf(root, cap, "%s", "");
    return p.found;
}
