/* source_traces: the source behind `--traces PATH`: a directory or S3
 * prefix as source_open opens it, or one trace file (local, or an
 * s3://…/name.json[.gz] key), seen as a source that lists that one file
 * under its own name, or a .tar.gz archive read in place (source_tar.h). */
#ifndef SMTOP_SOURCE_TRACES_H
#define SMTOP_SOURCE_TRACES_H

#include "io/source/source_open.h"

/* Opens spec. NULL with err set (as source_open's, naming spec). */
source *source_traces_open(const char *spec, const source_opts *o, sm_err *err);

#endif
