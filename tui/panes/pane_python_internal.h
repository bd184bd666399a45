/* pane_python_internal: the python pane's state, shared by pane_python.c
 * (keys, cache), pane_python_draw.c and pane_python_menu.c only. */
#ifndef SMTOP_PANE_PYTHON_INTERNAL_H
#define SMTOP_PANE_PYTHON_INTERNAL_H

#include <stdint.h>

#include "tui/panes/pane_common.h"
#include "tui/panes/pane_python.h"

typedef struct pypane_item {
    char label[256];
    char node[128];          /* "" = all nodes */
    unsigned phases;         /* PYJOB_* mask, 0 = all */
    int64_t t_lo, t_hi;      /* one window's span, 0 = any */
} pypane_item;

/* The sources the pane shows (`o` cycles): the job's cProfile or
 * pyinstrument stats, then the PyTorch profiler's tables (1 + gpuview_src). */
enum { PYSRC_STATS = 0, PYSRC_OPS, PYSRC_KERNELS, PYSRC_PYFUNC, PYSRC_IDLE, PYSRC_CPATH, PYSRC_N };

struct pane {
    int src;                 /* PYSRC_* */
    pystats_sort sort;
    int ksort;               /* the traces' tables: gpuview_sort */
    char keynote[64];        /* why a key did nothing here, until the next key */
    size_t sel, top;         /* selected row among the filtered rows, first shown */
    char filter[64];
    int filter_edit;
    /* what is merged: the menu's last choice */
    char node[128];
    unsigned phases;
    int64_t t_lo, t_hi;
    char sel_label[256];
    /* the window/node menu */
    int menu_on;
    size_t menu_sel, menu_top;
    pypane_item *menu;
    size_t nmenu;
    /* the merge: the loader's, valid until the frame's snapshot changes,
     * so pane_python_refresh renews it at every draw and key */
    const pystats_result *r;
    uint64_t asked_key;      /* the selection and sort last asked for */
    pystats_profiler prof;
    size_t nwin;             /* windows of prof in the job */
    int64_t span_lo, span_hi;   /* first start, last end of those windows */
    char note[48];           /* the border's time range: "whole job", ... */
    int have;                /* the job has Python stats */
    size_t *rows;            /* result positions passing the filter */
    size_t nrows, caprows;
};

/* What is merged: the menu's choice, within the selected time window
 * [t0_us, t1_us) (`+ - [ ]`) unless that holds every window (then no time
 * bound: the whole job); or while the view is focused on a step (the
 * cross-filter) every window overlapping the step's window. */
void pane_python_selection(const pane *p, const view_state *v, int64_t t0_us, int64_t t1_us,
                           pystats_select *sel);
/* Windows of profiler prof in the store (the "of M" in the title). */
size_t pane_python_profiler_windows(const pystats_store *s, pystats_profiler prof);
void pane_python_refresh(pane *p, const pane_ctx *ctx);
void pane_python_draw(pane *p, WINDOW *w, const pane_ctx *ctx);
int pane_python_menu_open(pane *p, const pane_ctx *ctx);
int pane_python_menu_key(pane *p, int ch, const pane_ctx *ctx);
void pane_python_menu_draw(pane *p, WINDOW *w, const pane_ctx *ctx, int y0);

/* The source picker (pane_python_kineto.c): keeps p->src when it has
 * data, else takes the first source that has; `o` moves to the next
 * source with data (1 when it moved). */
void pane_python_pick_source(pane *p, const pane_ctx *ctx);
int pane_python_next_source(pane *p, const pane_ctx *ctx);
/* "cProfile", "pyinstrument", or gpuview_src_name's. */
const char *pane_python_source_name(const pane *p);
/* The Kineto table: rows passing the filter (into p->rows), and the draw. */
size_t pane_python_kineto_count(pane *p, const pane_ctx *ctx);
void pane_python_kineto_draw(pane *p, WINDOW *w, const pane_ctx *ctx);

#endif
