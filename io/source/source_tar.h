/* source_tar: a tar archive in a gzip stream — SageMaker's
 * OutputDataConfig.S3OutputPath/JOB/output/output.tar.gz, /opt/ml/output/data
 * of an ended job — read in place as a read-only folder of its members.
 *
 * The first listing that finds the archive reads it once from start to
 * end (ranged reads of SOURCE_TAR_CHUNK), inflating it (io/source/gz_index)
 * into a tar reader (io/source/tar_walk) that notes each regular file's
 * name, size and offset; nothing is written to disk and member data is
 * not kept. A member is then read by inflating from the access point
 * before it (at most one span of output more than its own bytes); a read
 * that continues the last one continues its inflater. The archive is
 * written once, when the job ends: once read, it is never listed again.
 * A corrupt or cut archive keeps the members found before the damage,
 * and the listing names the archive with why. */
#ifndef SMTOP_SOURCE_TAR_H
#define SMTOP_SOURCE_TAR_H

#include "io/source/source_open.h"

#define SOURCE_TAR_CHUNK ((int64_t)8 << 20)

/* Opens spec (s3://bucket/…/x.tar.gz, or a local file): nothing is read
 * yet. NULL with err (a bad URL, no credentials). */
source *source_tar_open(const char *spec, const source_opts *o, sm_err *err);

/* The archive at key in inner (taken, also on failure), described as
 * desc. NULL on OOM. */
source *source_tar_wrap(source *inner, const char *key, const char *desc);

/* An archive bigger than max bytes (0: no bound) is not read: the
 * listing names it with its size. A job's output.tar.gz holds whatever
 * the script left in /opt/ml/output/data; --traces reads any size. */
void source_tar_limit(source *s, int64_t max);

/* 1 when spec names a .tar.gz or .tgz archive. */
int source_tar_names(const char *spec);

#endif
