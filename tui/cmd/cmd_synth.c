/* cmd_synth: `smtop synth` — write a synthetic profiler-output tree.
 *
 * Thin command-line layer over io/synth: parses options (both "--opt V" and
 * "--opt=V"), and in --live mode turns SIGINT/SIGTERM into the generator's
 * stop flag so it returns with the open .tmp left in place, as a killed
 * training job leaves it. */
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/synth/synth.h"
#include "tui/cmd/commands.h"

/* The one piece of state a signal handler can reach. */
static atomic_int synth_stop_flag;   /* lock-free: safe in a handler */

static void synth_on_signal(int sig)
{
    (void)sig;
    atomic_store(&synth_stop_flag, 1);
}

static void synth_usage(FILE *f)
{
    fputs("usage: smtop synth --out DIR [options]\n"
          "\n"
          "Writes a synthetic SageMaker profiler-output tree: system metrics per\n"
          "node per minute and pythontimeline traces rotated like smdebug's writer.\n"
          "\n"
          "  --out DIR            output directory (created if missing)\n"
          "  --nodes N            training nodes algo-1..algo-N (default 2)\n"
          "  --gpus G             GPUs per node (default 1)\n"
          "  --cpus C             CPU cores per node (default 4)\n"
          "  --minutes M          minutes of history (default 5)\n"
          "  --interval-ms I      system sampling interval, divides 60000 (default 500)\n"
          "  --live               after the history keep writing in real time until\n"
          "                       interrupted (Ctrl-C / SIGTERM)\n"
          "  --start EPOCH_SECONDS  job start (default: now minus --minutes)\n"
          "  --seed S             random seed; same options + seed = same bytes (default 1)\n"
          "  --slow-node K        make node K (0-based) a straggler (default: none)\n"
          "  --ranks R            training processes per node, each its own trace\n"
          "                       writer R-algo-N (default 1: one writer named by pid)\n"
          "  --slow-rank K        make rank K (0-based) of algo-1 ~30% slower (default: none)\n"
          "  --outlier-rate R     fraction of TRAIN steps 3-6x slower (default 0.01)\n"
          "  --step-ms MS         mean TRAIN step time (default 120)\n"
          "  --flat               old layout without system/incremental/<hour>/ folders\n"
          "  --no-traces          system metrics only (no framework/ traces)\n"
          "  --python-stats N     pyinstrument stats of TRAIN steps 9-11, then every\n"
          "                       N steps (default: none)\n"
          "  --kineto             PyTorch profiler (Kineto) traces as tensorboard_trace_handler\n"
          "                       writes them: DIR is then the job directory, system metrics\n"
          "                       go to DIR/profiler-output/, one trace per rank per profiling\n"
          "                       cycle to DIR/tensorboard-output/algo-N_PID.TIME.pt.trace.json.gz\n"
          "                       (smdebug framework traces are off)\n"
          "  --kineto-only        Kineto traces without system metrics\n"
          "  --kineto-dir REL     where the traces go, relative to DIR (default\n"
          "                       tensorboard-output; e.g. profiler-output/tensorboard)\n"
          "  --kineto-form F      modern (baseTimeNanoseconds before traceEvents, the default),\n"
          "                       2024 (clock keys after traceEvents) or legacy (2022: Operator/\n"
          "                       Runtime/Kernel categories, integer epoch ts, ms in file names)\n"
          "  --kineto-plain       plain .pt.trace.json through .tmp and a rename (default: .gz\n"
          "                       written in place; --live leaves each half-written a moment)\n"
          "  --kineto-every N     TRAIN steps between profiling cycles (default 100)\n"
          "  --kineto-active N    steps recorded per cycle (default 3, at most 100000; about\n"
          "                       45 KB of plain JSON a step per rank, 50 KB with\n"
          "                       --kineto-python)\n"
          "  --kineto-python      python_function events (with_stack)\n"
          "  --host-bound         the GPU mostly waits on the host (idle GPU, short kernels);\n"
          "                       the same as --shape host-bound\n"
          "  --shape S            a Kineto job with a known cause (implies --kineto; sets the\n"
          "                       nodes, ranks, GPUs and step time it needs, which the options\n"
          "                       after it may change): gpu-bound (the default), host-bound,\n"
          "                       gloo (DDP over gloo with CUDA tensors: all-reduce on gloo's\n"
          "                       threads, pinned copies, 2 ranks on GPU 0), main-loader\n"
          "                       (DataLoader(num_workers=0), with_stack, worker name\n"
          "                       algo-1_main), launch-bound (hundreds of tiny kernels),\n"
          "                       nccl-exposed (all-reduce after the backward, 2 ranks on 2\n"
          "                       GPUs), memory-full (reserved memory near the device's\n"
          "                       size, fp32 matmuls without Tensor Cores)\n"
          "  --kineto-worker W    tensorboard_trace_handler(worker_name=...): traces named\n"
          "                       algo-N_W.TIME.pt.trace.json.gz instead of algo-N_PID (needs\n"
          "                       --ranks 1)\n"
          "  -h, --help           this help\n",
          f);
}

/* Parses a whole-string number into *out; 0, or -1 when it is not one. */
static int parse_num(const char *s, double *out)
{
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (!*s || *end || errno)
        return -1;
    *out = v;
    return 0;
}

static int parse_int(const char *s, int *out)
{
    double v;
    if (parse_num(s, &v) || v < INT_MIN || v > INT_MAX || v != (double)(int)v)
        return -1;
    *out = (int)v;
    return 0;
}

/* Applies one option that takes a value; -1 on a bad value or unknown name. */
static int synth_set(synth_opts *o, const char *name, const char *val)
{
    double d;
    if (!strcmp(name, "--out")) {
        o->out = val;
        return 0;
    }
    if (!strcmp(name, "--nodes")) return parse_int(val, &o->nodes);
    if (!strcmp(name, "--gpus")) return parse_int(val, &o->gpus);
    if (!strcmp(name, "--cpus")) return parse_int(val, &o->cpus);
    if (!strcmp(name, "--minutes")) return parse_int(val, &o->minutes);
    if (!strcmp(name, "--interval-ms")) return parse_int(val, &o->interval_ms);
    if (!strcmp(name, "--slow-node")) return parse_int(val, &o->slow_node);
    if (!strcmp(name, "--ranks")) return parse_int(val, &o->ranks);
    if (!strcmp(name, "--slow-rank")) return parse_int(val, &o->slow_rank);
    if (!strcmp(name, "--python-stats")) return parse_int(val, &o->python_every);
    if (!strcmp(name, "--outlier-rate")) return parse_num(val, &o->outlier_rate);
    if (!strcmp(name, "--step-ms")) return parse_num(val, &o->step_ms);
    if (!strcmp(name, "--kineto-every")) return parse_int(val, &o->kineto_every);
    if (!strcmp(name, "--kineto-active")) return parse_int(val, &o->kineto_active);
    if (!strcmp(name, "--kineto-dir")) {
        o->kineto_dir = val;
        return 0;
    }
    if (!strcmp(name, "--kineto-worker")) {
        o->kineto_worker = val;
        return 0;
    }
    if (!strcmp(name, "--shape"))
        return synth_shape_find(val) >= 0 ? 0 : -1;   /* applied first: synth_shape_first */
    if (!strcmp(name, "--kineto-form")) {
        static const char *const forms[] = {"modern", "2024", "legacy"};
        for (int f = 0; f < 3; f++)
            if (!strcmp(val, forms[f])) {
                o->kineto_form = f;   /* SYNTH_KINETO_* in this order */
                return 0;
            }
        return -1;
    }
    if (!strcmp(name, "--seed")) {
        char *end;
        errno = 0;
        unsigned long long u = strtoull(val, &end, 10);
        if (!*val || *end || errno || *val == '-')
            return -1;
        o->seed = u;
        return 0;
    }
    if (!strcmp(name, "--start")) {
        if (parse_num(val, &d) || d <= 0 || d > 4102444800.0) /* year 2100 */
            return -1;
        o->start_us = (int64_t)(d * 1e6);
        return 0;
    }
    return -1;
}

static int is_value_option(const char *name)
{
    static const char *const names[] = {
        "--out", "--nodes", "--gpus", "--cpus", "--minutes", "--interval-ms",
        "--slow-node", "--outlier-rate", "--step-ms", "--seed", "--start",
        "--python-stats", "--ranks", "--slow-rank", "--kineto-every", "--kineto-active",
        "--kineto-dir", "--kineto-form", "--shape", "--kineto-worker",
    };
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (!strcmp(name, names[i]))
            return 1;
    return 0;
}

/* A --shape sets what the shape needs before any other option, so the
 * options given beside it change the shape's defaults, in any order.
 * A bad name is left for synth_parse to report. */
static void synth_shape_first(int argc, char **argv, synth_opts *o)
{
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = NULL;
        if (!strncmp(a, "--shape=", 8))
            v = a + 8;
        else if (!strcmp(a, "--shape") && i + 1 < argc)
            v = argv[++i];
        else if (is_value_option(a))
            i++;
        int s = v ? synth_shape_find(v) : -1;
        if (s >= 0)
            synth_shape_defaults(o, s);
    }
}

/* 0 parsed, 1 help printed, 2 usage error reported on stderr. */
static int synth_parse(int argc, char **argv, synth_opts *o)
{
    synth_shape_first(argc, argv, o);
    for (int i = 1; i < argc; i++) {
        char name[64];
        const char *a = argv[i], *eq = strchr(a, '='), *val = NULL;
        size_t n = eq && !strncmp(a, "--", 2) ? (size_t)(eq - a) : strlen(a);
        snprintf(name, sizeof name, "%.*s", (int)(n < 63 ? n : 63), a);
        if (!strcmp(name, "-h") || !strcmp(name, "--help")) {
            synth_usage(stdout);
            return 1;
        } else if (!strcmp(name, "--live") && !eq) {
            o->live = 1;
        } else if (!strcmp(name, "--flat") && !eq) {
            o->hour_dirs = 0;
        } else if (!strcmp(name, "--no-traces") && !eq) {
            o->traces = 0;
        } else if (!strcmp(name, "--kineto") && !eq) {
            o->kineto = 1;
        } else if (!strcmp(name, "--kineto-only") && !eq) {
            o->kineto = o->kineto_only = 1;
        } else if (!strcmp(name, "--kineto-plain") && !eq) {
            o->kineto_gzip = 0;
        } else if (!strcmp(name, "--kineto-python") && !eq) {
            o->kineto_python = 1;
        } else if (!strcmp(name, "--host-bound") && !eq) {
            o->host_bound = 1;
            o->kineto_shape = SYNTH_SHAPE_HOST_BOUND;
        } else if (is_value_option(name)) {
            val = eq ? eq + 1 : (i + 1 < argc ? argv[++i] : NULL);
            if (!val) {
                fprintf(stderr, "smtop synth: %s needs a value\n", name);
                return 2;
            }
            if (synth_set(o, name, val)) {
                fprintf(stderr, "smtop synth: bad value for %s: '%s'\n", name, val);
                return 2;
            }
        } else {
            fprintf(stderr, "smtop synth: unknown option '%s' (see smtop synth --help)\n", a);
            return 2;
        }
    }
    return 0;
}

int cmd_synth(int argc, char **argv)
{
    synth_opts o;
    synth_opts_init(&o);
    int rc = synth_parse(argc, argv, &o);
    if (rc)
        return rc == 1 ? SMTOP_EXIT_OK : SMTOP_EXIT_USAGE;
    sm_err err;
    sm_err_clear(&err);
    if (synth_opts_check(&o, &err)) {
        cmd_err_print("smtop synth", err.msg);
        return SMTOP_EXIT_USAGE;
    }
    if (o.live) {
        struct sigaction sa;
        memset(&sa, 0, sizeof sa);
        sa.sa_handler = synth_on_signal;
        sigemptyset(&sa.sa_mask);
        sigaction(SIGINT, &sa, NULL);
        sigaction(SIGTERM, &sa, NULL);
    }
    if (synth_run(&o, &synth_stop_flag, &err)) {
        cmd_err_print("smtop synth", err.msg);
        return cmd_exit_status(&err);
    }
    return SMTOP_EXIT_OK;
}
