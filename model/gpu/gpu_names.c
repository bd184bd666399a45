/* gpu_names: the words of the critical path's classes and of the idle
 * causes' kinds (gpu_cpath.h, gpu_idle.h). */
#include "model/gpu/gpu_cpath.h"
#include "model/gpu/gpu_idle.h"

const char *gpu_bound_name(int b)
{
    static const char *const names[GPU_BOUND_N] = {
        "cpu_bound",
        "data_loading",
        "gpu_compute_bound",
        "gpu_communication_bound",
        "gpu_kernel_kernel_overhead",
        "gpu_kernel_launch_overhead",
    };
    return b >= 0 && b < GPU_BOUND_N ? names[b] : "";
}

const char *gpu_idle_kind_name(int kind)
{
    static const char *const names[GPU_IDLE_KINDS] = {
        "annotation", "cpu_op", "python", "dataloader",
        "sync",       "memcpy", "comm_host", "runtime",
    };
    return kind >= 0 && kind < GPU_IDLE_KINDS ? names[kind] : "";
}
