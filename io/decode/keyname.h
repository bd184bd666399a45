/* keyname: what a key under profiler-output/ is, from its name alone.
 *
 *   system/incremental/<YYYYMMDDHH>/<epoch10>.algo-<n>.json   (or no hour dir)
 *   framework/pevents/<YYYYMMDDHH>/<end_us>_<node-part>_<kind>.json
 *   framework/<node>_<kind>.json.tmp                           (open trace)
 *   framework/<fw>/<cprofile|pyinstrument>/<node>/<stats_dir>/python_stats[.json]
 *   framework/<fw>/cProfile/<start_us>_<end_us>_<pid>-<node>_<step>/python_stats  (older)
 *   framework/tensorflow/detailed_profiling/<hour>/<step>/plugins/profile/<date>/<host>.trace.json.gz
 *   framework/tensorflow/detailed_profiling/<hour>/<step>/<writer>_<start_us>_<end_us>.metadata
 *   rule-output/ProfilerReport-<id>/profiler-output/profiler-reports/<Rule>.json
 * (rule-output lives beside profiler-output, keys then start with "../"
 * relative to the profiler-output root; the scanner passes them with the
 * job-relative prefix "rule-output/...").
 * Node parts vary: "4487_0000", "905-b88ab1bb8259", "0001", "1234-algo-1".
 * The part is the writer's id (the "process": `<rank or pid>-<host>`, one
 * per training process, so a node trained by 8 ranks has 8 writers); the
 * node is the host: "algo-N" when the part ends with it, else what follows
 * a leading `<digits>-`, else the whole part. <end_us> is the end of the
 * file's last event in epoch µs, or in epoch ns when it has 19 digits.
 * Times in names are epoch µs, sometimes with a fraction (Python printed
 * time.time() * 1e6): the fraction is dropped.
 *
 * PyTorch profiler traces (SPEC §1b) are named by torch.profiler's
 * tensorboard_trace_handler, `<worker>.<time>.pt.trace.json[.gz]`, with
 * worker `<host>_<pid>` (`algo-2_1234`) and time epoch ns (19 digits) or,
 * in older PyTorch, ms (13): KEY_KINETO wherever it lies, also in
 * tensorboard-output/ beside profiler-output/ (a job-relative key, as
 * rule-output's). */
#ifndef SMTOP_KEYNAME_H
#define SMTOP_KEYNAME_H

#include <stddef.h>
#include <stdint.h>

typedef enum key_kind {
    KEY_OTHER = 0,
    KEY_SYSTEM,         /* system metrics JSON lines */
    KEY_TRACE,          /* closed framework trace file */
    KEY_TRACE_TMP,      /* open framework trace file (.json.tmp) */
    KEY_CPROFILE,       /* python_stats (marshal) */
    KEY_PYINSTRUMENT,   /* python_stats.json */
    KEY_TF_TRACE,       /* *.trace.json.gz; node = the trace's host name */
    KEY_TF_META,        /* <writer>_<start>_<end>.metadata in a TF step dir:
                           node from the writer id, time_us = start */
    KEY_RULE_REPORT,    /* rule-output/.../<Rule>.json */
    KEY_KINETO,         /* PyTorch profiler trace, <worker>.<time>.pt.trace.json[.gz]
                           at any depth: node = the worker's host part,
                           process = the worker, time_us from the name */
    KEY_KINETO_MAYBE,   /* another *.json[.gz] where Kineto traces may be
                           (outside smdebug's layout): a trace only if its
                           head says so (kineto_file_sniff) */
    KEY_CLOUDWATCH      /* GetMetricData answers for a job's hosts, fetched
                           by the AWS room (never a key of a listing:
                           keyname_parse does not give it; cw_answer_key) */
} key_kind;

typedef enum trace_kind {
    TRACE_PYTHON = 0,   /* pythontimeline */
    TRACE_MODEL,        /* model_timeline */
    TRACE_HOROVOD,      /* horovod_timeline */
    TRACE_SMDP          /* smdataparallel_timeline */
} trace_kind;

typedef struct key_info {
    key_kind kind;
    char node[128];      /* node id, "" when not derivable */
    char process[128];   /* TRACE / TRACE_TMP: the writer id (the file
                            name's node part); "" for other kinds */
    int64_t time_us;     /* SYSTEM: minute start; TRACE: end_us; TF_META:
                            session start; else 0 */
    trace_kind tkind;    /* TRACE / TRACE_TMP */
} key_info;

/* Classifies `key` (relative to the profiler-output root). Never fails:
 * unknown keys are KEY_OTHER. */
void keyname_parse(const char *key, key_info *out);

/* Why a key that keyname_parse calls KEY_OTHER is not read, in words,
 * when it is under framework/ or system/ (which hold only profiler data,
 * so every file there must be accounted for); NULL elsewhere. */
const char *keyname_unread_reason(const char *key);

/* Whether a Kineto trace could be at `key` (relative to the root it was
 * listed under) though its name does not say so: a *.json or *.json.gz
 * that no other kind claims, outside smdebug's framework/ and system/
 * (whose other names keep their reasons) and rule-output/. */
int keyname_kineto_candidate(const char *key);

/* Derives the node id from a trace file's node part, a writer id (see
 * above). */
void keyname_node_from_part(const char *part, size_t len, char *out, size_t cap);

/* Formats the start-after key that lists system files from time t_us on:
 * "system/incremental/<YYYYMMDDHH>/<epoch10>" when hour_dirs, else
 * "system/incremental/<epoch10>". Returns out. */
char *keyname_system_after(int64_t t_us, int hour_dirs, char *out, size_t cap);
/* Same for framework/pevents/<YYYYMMDDHH>/<end_us>. */
char *keyname_trace_after(int64_t t_us, char *out, size_t cap);

#endif
