/* kineto_cdump: the C decoder's reading of a Kineto trace in the canonical
 * form of tests/tools/kineto_dump.py (the differential test compares the
 * two), fed in pieces of a chosen size. Prints "E ..." per event, the
 * metadata "M ...", then "S rc" (kineto_dec_finish's result) and, when it
 * failed, "W message".
 *
 *   kineto_cdump [--chunk N] [--keep-python 0|1] FILE */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/decode/kineto_decode.h"

static const char *const cats[KCAT_COUNT] = {
    "OTHER", "CPU_OP", "USER_ANNOTATION", "GPU_USER_ANNOTATION", "PYTHON_FUNCTION",
    "CUDA_RUNTIME", "CUDA_DRIVER", "KERNEL", "GPU_MEMCPY", "GPU_MEMSET", "CUDA_SYNC",
    "OVERHEAD", "TRACE", "FLOW", "MEMORY", "OOM"};

typedef struct out {
    FILE *f;
    char *buf;
    size_t cap;
} out;

static void esc(FILE *f, const char *p, size_t n)
{
    fputc('"', f);
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)p[i];
        if (c >= 0x20 && c < 0x7f && c != '"' && c != '\\')
            fputc(c, f);
        else
            fprintf(f, "\\x%02x", c);
    }
    fputc('"', f);
}

/* A raw JSON string body, unescaped, then escaped canonically. */
static void str(out *o, sm_str s)
{
    size_t n = kineto_str_copy(s, NULL, 0);
    if (n + 1 > o->cap) {
        free(o->buf);
        o->cap = n + 1;
        if (!(o->buf = malloc(o->cap))) {
            perror("kineto_cdump");
            exit(2);
        }
    }
    kineto_str_copy(s, o->buf, o->cap);
    esc(o->f, o->buf, n);
}

static void num(FILE *f, int64_t v)
{
    if (v == SM_KEV_NONE)
        fputc('-', f);
    else
        fprintf(f, "%lld", (long long)v);
}

static void opt_str(out *o, sm_str s)
{
    if (s.ptr)
        str(o, s);
    else
        fputc('-', o->f);
}

static void id(out *o, int64_t v, sm_str s)
{
    if (s.ptr) {
        fputc('s', o->f);
        str(o, s);
    } else {
        num(o->f, v);
    }
}

static void on_event(void *ud, const sm_kevent *e)
{
    out *o = ud;
    FILE *f = o->f;
    unsigned char ph = (unsigned char)e->ph;
    if (ph > 0x20 && ph < 0x7f)
        fprintf(f, "E %c %s ts=", ph, cats[e->cat]);
    else
        fprintf(f, "E \\x%02x %s ts=", ph, cats[e->cat]);
    num(f, e->ts_ns);
    fputs(" dur=", f), num(f, e->dur_ns);
    fputs(" pid=", f), id(o, e->pid, e->pid_str);
    fputs(" tid=", f), id(o, e->tid, e->tid_str);
    fputs(" corr=", f), num(f, e->correlation);
    fputs(" ext=", f), num(f, e->external_id);
    fputs(" dev=", f), num(f, e->device);
    fputs(" stream=", f), num(f, e->stream);
    fprintf(f, " step=%lld mem=", (long long)e->step);
    num(f, e->mem_bytes), fputc(',', f), num(f, e->mem_total_allocated), fputc(',', f);
    num(f, e->mem_total_reserved), fputc(',', f), num(f, e->mem_device);
    fputs(" msg=", f), num(f, e->msg_bytes);
    fputs(" wait=", f), num(f, e->wait_stream), fputc(',', f), num(f, e->wait_corr);
    fputs(" coll=", f), opt_str(o, e->collective);
    fputs(" aname=", f), opt_str(o, e->arg_name);
    fputs(" name=", f), str(o, e->name);
    fputc('\n', f);
}

static void meta(out *o, const sm_kmeta *m)
{
    FILE *f = o->f;
    fputs("M schema=", f);
    num(f, m->has_schema ? m->schema_version : SM_KEV_NONE);
    fputs(" base=", f);
    num(f, m->has_base ? m->base_ns : SM_KEV_NONE);
    fprintf(f, " ts_epoch=%d dist=%d rank=%lld world=%lld backend=", m->ts_epoch,
            m->has_dist, (long long)m->rank, (long long)m->world_size);
    esc(f, m->backend.ptr, m->backend.len);
    fputs(" host=", f);
    esc(f, m->host_name.ptr, m->host_name.len);
    fprintf(f, " devices=%zu mem=", m->n_devices);
    for (size_t i = 0; i < m->n_devices; i++)
        fprintf(f, "%s%lld", i ? "," : "", (long long)m->total_global_mem[i]);
    fprintf(f, " events=%lld bad=%lld trace_events=%d kineto_keys=%d\n",
            (long long)m->events, (long long)m->bad_events, m->has_trace_events,
            m->kineto_keys);
}

int main(int argc, char **argv)
{
    size_t chunk = 1 << 16;
    kineto_dec_opts opts = {1, 0};
    int a = 1;
    for (; a + 1 < argc && argv[a][0] == '-'; a += 2) {
        if (strcmp(argv[a], "--chunk") == 0)
            chunk = (size_t)strtoull(argv[a + 1], NULL, 10);
        else if (strcmp(argv[a], "--keep-python") == 0)
            opts.keep_python = atoi(argv[a + 1]);
    }
    if (a + 1 != argc || chunk == 0) {
        fprintf(stderr, "usage: %s [--chunk N] [--keep-python 0|1] FILE\n", argv[0]);
        return 2;
    }
    FILE *in = fopen(argv[a], "rb");
    if (!in) {
        perror(argv[a]);
        return 2;
    }
    out o = {stdout, NULL, 0};
    kineto_dec *d = kineto_dec_new(&opts);
    size_t block = chunk > (1u << 20) ? chunk : 1u << 20;   /* reads, not pieces */
    char *buf = malloc(block);
    if (!d || !buf)
        return 2;
    size_t n;
    int bad = 0;
    while (!bad && (n = fread(buf, 1, block, in)) > 0)
        for (size_t at = 0; at < n && !bad; at += chunk)
            bad = kineto_dec_feed(d, buf + at, n - at < chunk ? n - at : chunk, on_event, &o) != 0;
    fclose(in);
    sm_kmeta m;
    sm_err err = {0};
    int rc = kineto_dec_finish(d, &m, &err);
    meta(&o, &m);
    printf("S %d\n", rc);
    if (rc != 0)
        printf("W %s\n", err.msg);
    kineto_dec_free(d);
    free(buf);
    free(o.buf);
    return 0;
}
