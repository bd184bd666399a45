/* gpu_names: what a name says to the critical path and the idle causes
 * (gpu_cpath.h, gpu_idle.h): the words of their classes and kinds, a
 * name's flags, HTA's shortened names. */
#include <stdlib.h>
#include <string.h>

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

const char *gpu_nt_name(int table)
{
    static const char *const names[GPU_NT_N] = {"kernel", "cpu_op", "python_function",
                                                "user_annotation", "cuda_runtime"};
    return table >= 0 && table < GPU_NT_N ? names[table] : "unknown";
}

const char *gpu_idle_kind_name(int kind)
{
    static const char *const names[GPU_IDLE_KINDS] = {
        "annotation", "cpu_op", "python", "dataloader",
        "sync",       "memcpy", "comm_host", "runtime",
    };
    return kind >= 0 && kind < GPU_IDLE_KINDS ? names[kind] : "";
}

static int is(const char *s, size_t n, const char *lit)
{
    return n == strlen(lit) && !memcmp(s, lit, n);
}

static int starts(const char *s, size_t n, const char *lit)
{
    size_t k = strlen(lit);
    return n >= k && !memcmp(s, lit, k);
}

static int has(const char *s, size_t n, const char *lit)
{
    size_t k = strlen(lit);
    for (size_t i = 0; i + k <= n; i++)
        if (!memcmp(s + i, lit, k))
            return 1;
    return 0;
}

static int in_list(const char *s, size_t n, const char *const *list)
{
    for (; *list; list++)
        if (is(s, n, *list))
            return 1;
    return 0;
}

/* HTA's MemoryKernelGroupingPattern: ^(hip)?Memcpy|^(hip)?Memset|^dma. */
static int memory_kernel(const char *s, size_t n)
{
    return starts(s, n, "Memcpy") || starts(s, n, "hipMemcpy") || starts(s, n, "Memset") ||
           starts(s, n, "hipMemset") || starts(s, n, "dma");
}

/* The walk of gpu_shorten_name into st (len bytes at least): returns the
 * kept length. */
static size_t shorten_walk(const char *name, size_t len, char *st)
{
    size_t n = 0;
    for (size_t i = 0; i < len; i++) {
        char c = name[i];
        if (c == '-' && i + 1 < len && name[i + 1] == '>') {
            i++;   /* "->" is dropped before the walk */
            continue;
        }
        if (c == '>' || c == ')') {
            char open = c == '>' ? '<' : '(';
            while (n && st[n - 1] != open)
                n--;
            if (n)
                n--;
        } else {
            st[n++] = c;
        }
    }
    return n;
}

size_t gpu_shorten_name(const char *name, size_t len, char *out, size_t cap)
{
    if (cap == 0)
        return 0;
    char small[1024], *st = small;
    size_t n;
    if (memory_kernel(name, len) || (!memchr(name, '<', len) && !memchr(name, '(', len))) {
        st = (char *)name;
        n = len;
    } else {
        if (len > sizeof small && !(st = malloc(len)))
            return out[0] = 0, 0;   /* out of memory: no short name */
        n = shorten_walk(name, len, st);
    }
    size_t from = n;
    if (st != name)
        while (from && st[from - 1] != ' ')
            from--;
    else
        from = 0;
    size_t k = n - from < cap - 1 ? n - from : cap - 1;
    memmove(out, st + from, k);
    out[k] = 0;
    if (st != small && st != name)
        free(st);
    return k;
}

/* HTA's bound_by data-loading test on the shortened name: the patterns
 * enumerate\(DataLoader\) and DataLoader, by re.search. */
static int data_bound(const char *name, size_t len)
{
    char s[1024];
    size_t n = gpu_shorten_name(name, len, s, sizeof s);
    return has(s, n, "enumerate(DataLoader)") || has(s, n, "DataLoader");
}

/* HTA's CommunicateKernelGroupingPattern on the shortened name:
 * ^nccl|^hip|^hccl|ncclKernel. */
static int comm_kernel(const char *name, size_t len)
{
    char s[1024];
    size_t n = gpu_shorten_name(name, len, s, sizeof s);
    return starts(s, n, "nccl") || starts(s, n, "hip") || starts(s, n, "hccl") ||
           has(s, n, "ncclKernel");
}

static uint32_t runtime_flags(const char *s, size_t n)
{
    static const char *const lock[] = {"cudaHostAlloc", "cudaLaunchKernel", "cudaMemcpyAsync",
                                       NULL};
    static const char *const blocking[] = {"cudaDeviceSynchronize", "cudaStreamSynchronize",
                                           "cudaEventQuery", "cudaEventSynchronize",
                                           "cudaMemcpy", "cudaMemcpyAsync", NULL};
    static const char *const launch[] = {
        "cudaLaunchKernel", "cudaLaunchKernelExC", "cuLaunchKernel", "cuLaunchKernelEx",
        "cudaMemcpyAsync", "cudaMemsetAsync", "runFunction - job_prep_and_submit_for_execution",
        "hipLaunchKernel", "hipExtModuleLaunchKernel", "hipMemsetAsync", "hipMemcpyAsync",
        "hipMemcpyWithStream", NULL};
    uint32_t f = 0;
    f |= in_list(s, n, lock) ? GPU_CF_LOCK : 0;
    f |= in_list(s, n, blocking) ? GPU_CF_BLOCKING : 0;
    f |= in_list(s, n, launch) ? GPU_CF_LAUNCH : 0;
    f |= is(s, n, "cudaEventRecord") ? GPU_CF_RECORD : 0;
    f |= is(s, n, "cudaStreamWaitEvent") ? GPU_CF_WAIT : 0;
    if (starts(s, n, "cudaMemcpy") || starts(s, n, "cudaMemset") || starts(s, n, "hipMemcpy") ||
        starts(s, n, "hipMemset") || starts(s, n, "cuMemcpy") || starts(s, n, "cuMemset"))
        f |= GPU_CF_MEMCPY;
    else if (has(s, n, "Synchronize") || is(s, n, "cudaEventQuery") ||
             is(s, n, "cudaStreamQuery") || is(s, n, "cudaStreamWaitEvent") ||
             is(s, n, "Stream Sync") || is(s, n, "Context Sync") || is(s, n, "Event Sync") ||
             is(s, n, "Stream Wait Event"))
        f |= GPU_CF_SYNC;
    return f;
}

uint32_t gpu_name_flags(int table, const char *s, size_t n)
{
    if (table == GPU_NT_KERNEL)
        return comm_kernel(s, n) ? GPU_CF_COMM : 0;
    uint32_t f = has(s, n, "DataLoader") ? GPU_CF_DATALOAD : 0;
    f |= data_bound(s, n) ? GPU_CF_DATA_BOUND : 0;
    if (table == GPU_NT_RUNTIME)
        return f | runtime_flags(s, n);
    if (table == GPU_NT_OP || table == GPU_NT_ANNOT) {
        f |= has(s, n, "forward") ? GPU_CF_FORWARD : 0;
        f |= has(s, n, "autograd") ? GPU_CF_AUTOGRAD : 0;
        f |= starts(s, n, "gloo:") ? GPU_CF_GLOO : 0;
    }
    if (table == GPU_NT_ANNOT && starts(s, n, "ProfilerStep#"))
        f |= GPU_CF_STEP;
    if (table == GPU_NT_OP && (starts(s, n, "c10d::") || is(s, n, "record_param_comms")))
        f |= GPU_CF_C10D;
    return f;
}
