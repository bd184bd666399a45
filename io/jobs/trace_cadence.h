/* trace_cadence: how often a job's PyTorch profiler traces appear, for
 * the status of a job the folder source found by its traces alone.
 *
 * torch.profiler writes one trace per rank per profiling cycle (its
 * schedule: wait, warmup, active, repeat), so minutes between traces are
 * normal for a running job. The cadence is the longest gap between two
 * consecutive traces of one writer (the same folder and worker,
 * `host_pid`): the ranks of one cycle write at nearly the same moment,
 * so a gap between two writers says nothing, and the longest gap covers
 * the slow cycles (an evaluation, a checkpoint) a running job has
 * between fast ones. The caller gives each trace's time: the one in its
 * name (when tensorboard_trace_handler saved it), which an upload in
 * batches or a copy leaves alone, else its modification time. */
#ifndef SMTOP_TRACE_CADENCE_H
#define SMTOP_TRACE_CADENCE_H

typedef struct trace_cadence trace_cadence;

/* An empty collection; NULL on OOM. */
trace_cadence *trace_cadence_new(void);
void trace_cadence_free(trace_cadence *c);

/* Adds a trace written by writer (any string that names the process and
 * its folder; only its hash is kept) at t_s (seconds, any epoch that
 * all of one writer's traces share). 0, or -1 on OOM (c unchanged). */
int trace_cadence_add(trace_cadence *c, const char *writer, double t_s);

/* The longest gap in seconds between consecutive traces of one writer;
 * 0 while no writer has two traces at different times (unknown). */
double trace_cadence_gap(trace_cadence *c);

#endif
