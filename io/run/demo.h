/* demo: the simulated live job behind `smtop --demo` — a temporary
 * directory that io/synth keeps writing in real time on its own thread. */
#ifndef SMTOP_DEMO_H
#define SMTOP_DEMO_H

#include "model/util/sm_err.h"

typedef struct demo demo;

/* Creates $TMPDIR/smtop-demo-XXXXXX and starts a 4-node, 2-GPU, 8-CPU job
 * with 10 minutes of history, a slow node and a few step outliers; returns
 * once the generator has started writing (the scanner picks up the rest,
 * and waits for it if it finds no file yet). NULL with err (the directory
 * is removed). */
demo *demo_start(sm_err *err);

/* The profiler-output directory being written. */
const char *demo_dir(const demo *d);

/* Stops the generator, removes the directory recursively and frees d.
 * NULL is a no-op. */
void demo_stop(demo *d);

#endif
