/* hta_div: where smtop differs from HTA f4d0062 on purpose, one reason
 * per id, each with the title of its entry in the man page's "DIFFERENCES
 * FROM HTA" section (test_gpu_conformance's test_man_hta checks the two
 * lists are one for one). Shared by the conformance tests of the
 * breakdowns (test_gpu_conformance.c) and of the critical path
 * (test_gpu_cpath_conformance.c). Include once per test program. */
#ifndef SMTOP_TEST_HTA_DIV_H
#define SMTOP_TEST_HTA_DIV_H

typedef enum div_id {
    DIV_STREAM_CPU_OP,
    DIV_SYNC_ROWS,
    DIV_DRIVER_LAUNCH,
    DIV_HIP_LAUNCH,
    DIV_TOP_AGGREGATE,
    DIV_LAST_STEP,
    DIV_SUB_US,
    DIV_COUNT
} div_id;

static const struct {
    const char *title, *why;
} div_text[DIV_COUNT] = {
    [DIV_STREAM_CPU_OP] = {"A CPU op that carries args.stream",
        "HTA counts every event with args.stream as GPU time (breakdown_analysis.py "
        "get_temporal_breakdown: trace_df[\"stream\"].ne(-1)), here the torch.compile cpu_op "
        "triton_poi_fused_add_cos_sin_0 as 94 us; smtop counts GPU rows only (kernel, "
        "gpu_memcpy, gpu_memset), here one 1.76 us kernel. The same test clips such an op "
        "out of the critical path's CPU side (critical_path_analysis.py: cpu_kernels = "
        "stream.eq(-1)): HTA gives its 45 us to its parent, smtop to the op"},
    [DIV_SYNC_ROWS] = {"cuda_sync rows",
        "HTA counts cuda_sync rows (Stream Sync, Event Sync, Context Sync: they carry "
        "args.stream) as GPU busy time in the temporal breakdown (get_temporal_breakdown, "
        "stream.ne(-1)); they are the host blocked in a sync call, not GPU work, so smtop "
        "leaves them out of the span and the busy time"},
    [DIV_DRIVER_LAUNCH] = {"Driver launches",
        "smtop counts the driver's cuLaunchKernel and cuLaunchKernelEx (Triton, cuBLASLt "
        "on H100) as launches; HTA counts cudaLaunchKernel, cudaLaunchKernelExC, "
        "cudaMemcpyAsync and cudaMemsetAsync only (cuda_kernel_analysis.py "
        "cuda_kernel_launch_stats)"},
    [DIV_HIP_LAUNCH] = {"HIP launches",
        "smtop counts HIP calls (hipLaunchKernel, hipExtModuleLaunchKernel, "
        "hipMemcpyWithStream) as launches; HTA knows CUDA runtime names only, so it "
        "reports 0 on ROCm"},
    [DIV_TOP_AGGREGATE] = {"Top-kernel mean, max and min",
        "HTA aggregates a type's kernels twice (breakdown_analysis.py "
        "_aggr_gpu_kernel_time: groupby name, then groupby name again over the sums), so "
        "a named row's mean, max and min equal its sum, and the others row's are over the "
        "per-name sums; smtop gives each name's real mean, max and min"},
    [DIV_LAST_STEP] = {"The last ProfilerStep",
        "HTA finds the last ProfilerStep among every non-kernel event, its GPU-side copy "
        "(gpu_user_annotation) included (trace.py _filter_irrelevant_gpu_kernels), so it "
        "keeps the part of the last step before that copy starts; smtop finds it among "
        "CPU user_annotation events only (unit_gpu_trace: test_last_step_gpu_copy)"},
    [DIV_SUB_US] = {"Rows shorter than a microsecond",
        "HTA rounds a row's start up and its end down to whole microseconds "
        "(trace_parser.py round_down_time_stamps), so a row inside one microsecond lasts "
        "-1 us and is subtracted from sums; smtop makes it 0 (unit_gpu_trace: "
        "test_sub_us_row)"},
};

#endif
