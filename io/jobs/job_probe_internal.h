/* job_probe's parts (internal to io/jobs): the state kept per job, the
 * listing and reading helpers, and the step figures (job_probe_steps.c). */
#ifndef SMTOP_JOB_PROBE_INTERNAL_H
#define SMTOP_JOB_PROBE_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "io/source/source.h"
#include "model/jobs/jobfig.h"

#define PROBE_KEY_MAX 1024

typedef struct probe_job {
    char *name;
    jobfig_sys *sys;
    char sys_cursor[PROBE_KEY_MAX];   /* the last system file read; "" none */
    int sys_caught_up;                /* the last call read to the newest file */
    jobfig_steps *steps;
    char pev_cursor[PROBE_KEY_MAX];   /* the last framework/pevents key listed */
    char kineto_key[PROBE_KEY_MAX];   /* the trace its p50 is from; "" none */
    double kineto_p50_ms;
    double probed_s;                  /* 0 never */
    int final;                        /* ended and read to its end */
} probe_job;

typedef struct probe_key {
    char *key;
    int64_t size, mtime_us, time_us;   /* time_us: from the name (keyname) */
} probe_key;

typedef struct probe_keys {
    probe_key *v;
    size_t n, cap;
    size_t max;           /* stop listing past this many (0: no bound) */
    int cut;              /* stopped at max */
    size_t rel;           /* bytes of the job's profiler-output/ prefix */
    int want;             /* key_kind kept */
    const char *stop;     /* first key past the range, NULL none */
} probe_keys;

/* Lists prefix after `after` into k (keys of kind k->want by their name
 * relative to the profiler-output root, k->rel bytes in). 0 or -1. */
int job_probe_list(source *src, const char *prefix, const char *after, probe_keys *k,
               sm_err *err);
void job_probe_keys_free(probe_keys *k);

/* Calls fn for each line of each of keys[0..n) read whole (the last line
 * with or without its newline), in order. 0, or -1 with err (a read failed). */
typedef void (*probe_line_fn)(void *ud, const probe_key *k, const char *line, size_t len);
int job_probe_read_lines(source *src, const probe_key *keys, size_t n, probe_line_fn fn, void *ud,
                     sm_err *err);

/* Brings pj's step figures up to date (smdebug, else Kineto); anchor_us
 * is the newest system sample's time (0 unknown), where the newest
 * framework events are looked for first. 0 or -1 with err. */
int job_probe_steps_update(source *src, const char *job, probe_job *pj, int64_t anchor_us,
                       sm_err *err);

#endif
