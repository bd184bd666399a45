/* gpucause: the PyTorch profiler's findings, each with its cause and its
 * fix (issue 32 points 3 and 4), for the verdict.
 *
 * The GPU idle finding carries the traces' idle share over the steps they
 * hold (HTA's idle time) and names what the GPU waited for, the first of
 * these that the data shows (gpucause.c's CAUSES, in order):
 *   gloo        DDP over gloo with CUDA tensors (GlooWithCUDA fired), or
 *               host communication during GPUCAUSE_SHARE_PCT % of the idle
 *               time: "gloo all-reduce on the host" → use NCCL;
 *   loader      the DataLoader's share of the steps at or over the
 *               Dataloader rule's min_data_pct, on the main thread
 *               ("DataLoader on the main thread (train.py:12 __getitem__)"
 *               → num_workers) or waiting for its workers;
 *   launches    KernelLaunchOverhead fired, or the steps' critical path
 *               GPUCAUSE_LAUNCH_PCT % or more in launch calls and launch
 *               delays (HTA's classes): → CUDA graphs / torch.compile;
 *               unless, under that share, one host event holds
 *               GPUCAUSE_HOST_OP_PCT % of a rank's path: the host is busy
 *               in that op, and the next cause names it;
 *   host        GPUIdleHostBound fired, or the critical path half
 *               cpu_bound: the host's busiest work while the GPU waited
 *               → a bigger batch, torch.compile;
 *   else        a bigger batch, from GPUCAUSE_BATCH_IDLE_PCT % idle on
 *               (the TensorBoard profiler's advice under 50 % GPU
 *               utilization); under it no idle finding.
 * Then one finding for each other Kineto rule that fired (communication
 * not overlapped, launches, memory near capacity, gloo, ranks sharing a
 * GPU, matmuls without Tensor Cores), each with its cause and fix, unless
 * the idle finding told it already (finding.rule).
 *
 * Pure: no I/O; the caller holds the model lock. */
#ifndef SMTOP_GPUCAUSE_H
#define SMTOP_GPUCAUSE_H

#include <stddef.h>

#include "model/model.h"
#include "model/rules/rules.h"
#include "model/view/finding.h"

/* A cause is named from this share of the GPU's idle time on. */
#define GPUCAUSE_SHARE_PCT 20.0
/* The critical path is launch-bound from this share of it on. */
#define GPUCAUSE_LAUNCH_PCT 30.0
/* Under it, one host event with this share of a rank's critical path is
 * where the host is busy, whatever the share of short kernels. */
#define GPUCAUSE_HOST_OP_PCT 50.0
/* An idle share no cause explains is a finding (a bigger batch) from
 * this on: the TensorBoard profiler's "GPU utilization < 50 %". */
#define GPUCAUSE_BATCH_IDLE_PCT 50.0

/* The Kineto findings of m, given the results of every rule (res[0..nres),
 * rules table order) and the rules' parameters (r, for the Dataloader's
 * threshold; may be NULL: defaults). The idle finding comes when the
 * traces' idle share is at least idle_min %. At most max into out; returns
 * how many. None without Kineto ranks. */
size_t gpucause_findings(const model *m, const rule_result *res, size_t nres, const rules *r,
                         double idle_min, finding *out, size_t max);

/* "train.py:12 __getitem__" for the frame "train.py(12): __getitem__"
 * (name: len bytes), into out; a name of another shape is copied. */
void gpucause_frame_words(const char *name, size_t len, char *out, size_t cap);

#endif
