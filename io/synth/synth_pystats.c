/* synth_pystats: pyinstrument python_stats.json for profiled step windows,
 * so the demo and the tests have a Python-functions pane with numbers
 * that follow the job (a straggler's data loader really is slower).
 *
 * The tree is what pyinstrument records for a PyTorch training loop: the
 * data loader, the model's forward, autograd's backward and the optimizer,
 * each with a few realistic children. Times are the window's sums of the
 * step phases the trace generator scheduled, split by fixed shares. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "io/synth/synth_internal.h"

typedef struct pyframe {
    const char *func, *file;
    int line;
    int depth;      /* 0 is the root; a frame's children follow it */
    int part;       /* which step phase its time comes from */
    double share;   /* of that phase */
} pyframe;

enum { P_ALL, P_DATA, P_FWD, P_BWD, P_OPT };

/* Pre-order: each frame's children are the following frames one level
 * deeper. The shares of children never exceed their parent's. */
static const pyframe tree[] = {
    {"<module>", "train.py", 1, 0, P_ALL, 1.0},
    {"main", "train.py", 142, 1, P_ALL, 1.0},
    {"train_one_epoch", "train.py", 71, 2, P_ALL, 1.0},
    {"__next__", "torch/utils/data/dataloader.py", 628, 3, P_DATA, 1.0},
    {"_next_data", "torch/utils/data/dataloader.py", 671, 4, P_DATA, 0.97},
    {"fetch", "torch/utils/data/_utils/fetch.py", 49, 5, P_DATA, 0.9},
    {"__getitem__", "torchvision/datasets/folder.py", 229, 6, P_DATA, 0.78},
    {"pil_loader", "torchvision/datasets/folder.py", 245, 7, P_DATA, 0.41},
    {"__call__", "torchvision/transforms/transforms.py", 94, 7, P_DATA, 0.33},
    {"default_collate", "torch/utils/data/_utils/collate.py", 84, 5, P_DATA, 0.06},
    {"_call_impl", "torch/nn/modules/module.py", 1501, 3, P_FWD, 1.0},
    {"forward", "torchvision/models/resnet.py", 284, 4, P_FWD, 0.98},
    {"_forward_impl", "torchvision/models/resnet.py", 266, 5, P_FWD, 0.97},
    {"forward", "torch/nn/modules/conv.py", 463, 6, P_FWD, 0.52},
    {"forward", "torch/nn/modules/batchnorm.py", 171, 6, P_FWD, 0.21},
    {"forward", "torch/nn/modules/activation.py", 103, 6, P_FWD, 0.08},
    {"cross_entropy", "torch/nn/functional.py", 3029, 4, P_FWD, 0.02},
    {"backward", "torch/_tensor.py", 487, 3, P_BWD, 1.0},
    {"backward", "torch/autograd/__init__.py", 200, 4, P_BWD, 0.99},
    {"step", "torch/optim/optimizer.py", 280, 3, P_OPT, 1.0},
    {"_single_tensor_sgd", "torch/optim/sgd.py", 213, 4, P_OPT, 0.93},
};
#define NFRAMES (sizeof tree / sizeof tree[0])

static double frame_seconds(const pyframe *f, const synth_pywin *w)
{
    double us;
    switch (f->part) {
    case P_DATA: us = (double)w->data_us; break;
    case P_FWD: us = (double)w->fwd_us; break;
    case P_BWD: us = (double)w->bwd_us; break;
    case P_OPT: us = (double)w->opt_us; break;
    default: us = (double)(w->end_us - w->start_us); break;
    }
    return us * f->share / 1e6;
}

/* Appends frame i and its subtree; returns the index after the subtree. */
static size_t put_frame(FILE *f, size_t i, const synth_pywin *w)
{
    const pyframe *fr = &tree[i];
    fprintf(f, "{\"function\": \"%s\", \"file_path_short\": \"%s\", "
               "\"file_path\": \"/opt/conda/lib/python3.10/site-packages/%s\", "
               "\"line_no\": %d, \"time\": %.6f, \"await\": false, "
               "\"is_application_code\": %s, \"children\": [",
            fr->func, fr->file, fr->file, fr->line, frame_seconds(fr, w),
            strchr(fr->file, '/') ? "false" : "true");
    size_t j = i + 1;
    for (int first = 1; j < NFRAMES && tree[j].depth > fr->depth; first = 0) {
        if (!first)
            fputs(", ", f);
        j = put_frame(f, j, w);
    }
    fputs("]}", f);
    return j;
}

/* A time as smdebug names stats dirs with it: Python's repr of
 * time.time() * 1e6, a double whose spacing near 1.6e15 is 0.25 µs, so the
 * fraction is one digit (.0, .2, .5 or .8). The whole µs are t. */
static void python_us(char *out, size_t cap, int64_t t)
{
    static const char frac[] = "0258";
    snprintf(out, cap, "%lld.%c", (long long)t, frac[(uint64_t)t * 2654435761u % 4]);
}

int synth_pystats_write(const synth_job *job, int node, const synth_pywin *w, sm_err *err)
{
    char dir[4096], path[4200], tmp[4300], t0[32], t1[32];
    python_us(t0, sizeof t0, w->start_us);
    python_us(t1, sizeof t1, w->end_us);
    snprintf(dir, sizeof dir,
             "%s/framework/pytorch/pyinstrument/algo-%d/train-%lld-stepstart-%s_"
             "train-%lld-stepend-%s",
             job->o->out, node + 1, (long long)w->first_step, t0, (long long)w->last_step, t1);
    if (synth_mkdirs(dir, err))
        return -1;
    snprintf(path, sizeof path, "%s/python_stats.json", dir);
    /* Written aside and renamed: a scanner never sees half a tree. Aside
     * means outside framework/, where an unknown file would be named as
     * not read. */
    snprintf(tmp, sizeof tmp, "%s/.python_stats.algo-%d.part", job->o->out, node + 1);
    FILE *f = fopen(tmp, "w");
    if (!f)
        return sm_err_set(err, SM_ERR_IO, "cannot write %s", tmp);
    double dur = (double)(w->end_us - w->start_us) / 1e6;
    fprintf(f, "{\"start_time\": %.6f, \"duration\": %.6f, \"sample_count\": %lld, "
               "\"program\": \"train.py\", \"cpu_time\": %.6f, \"root_frame\": ",
            (double)w->start_us / 1e6, dur, (long long)(dur * 1000), dur * 0.97);
    put_frame(f, 0, w);
    fputs("}\n", f);
    if (fclose(f) != 0 || rename(tmp, path) != 0) {
        remove(tmp);
        return sm_err_set(err, SM_ERR_IO, "cannot write %s", path);
    }
    return 0;
}
