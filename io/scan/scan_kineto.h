/* scan_kineto: where the scanner looks for PyTorch profiler (Kineto)
 * traces beyond smdebug's layout (SPEC §1b; internal to io/scan).
 *
 * A trace is a whole file read once complete (KEY_KINETO by name,
 * KEY_KINETO_MAYBE for another *.json[.gz] whose head must say so). They
 * may lie at any depth under profiler-output/ (framework/ is listed by the
 * scanner itself; system/ holds none and is not listed again), in
 * tensorboard-output/ beside it (where a TensorBoardOutputConfig uploads
 * /opt/ml/output/tensorboard) and anywhere under the job prefix but
 * debug-output/ (Debugger's tensors, not profiler data) and rule-output/
 * (listed by the scanner). Keys outside profiler-output/ reach the
 * scanner job-relative, as rule-output's do. */
#ifndef SMTOP_SCAN_KINETO_H
#define SMTOP_SCAN_KINETO_H

#include <stddef.h>

#include "io/decode/keyname.h"
#include "io/source/source.h"
#include "model/util/sm_err.h"

/* Lists, through cb, every key of `src` outside root's system/ and
 * framework/ (and outside debug-output/ and rule-output/ when root names
 * profiler-output/ in a job directory) that is or may be a Kineto trace,
 * and the folders that could not be listed there. cb's return value
 * stops a listing as source_list's does. 0, or -1 with err. */
int scan_kineto_list(source *src, const char *root, source_list_cb cb, void *ud, sm_err *err);

/* Marks ki (keyname_parse's answer for rel, a key relative to the root or
 * the job) KEY_KINETO_MAYBE when rel could hold a trace by its name
 * alone (keyname_kineto_candidate). */
void scan_kineto_classify(const char *rel, key_info *ki);

/* For a source with neither system/ nor framework/: 1 with root set to
 * "profiler-output/" when it is a job directory whose traces are in
 * tensorboard-output/, or to "" when it holds a Kineto trace elsewhere,
 * or a JSON file that may be one (a folder of traces: each is then read
 * or named); 0 when it holds none; -1 with err when listing failed. */
int scan_kineto_probe(source *src, char *root, size_t cap, sm_err *err);

#endif
