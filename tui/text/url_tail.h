/* url_tail: s3:// URLs inside a line of text shortened to their last
 * folders ("s3://bucket/a/b/JOB/tensorboard-output/" to
 * "s3://.../JOB/tensorboard-output/" for 2), so a header naming several
 * places of one job keeps what tells them apart: the job and the place. */
#ifndef SMTOP_URL_TAIL_H
#define SMTOP_URL_TAIL_H

#include <stddef.h>

/* in with each s3:// URL (up to the next space) cut to its last keep
 * path components, into out (cap bytes, always terminated). Returns
 * the length written. */
size_t url_tail(const char *in, int keep, char *out, size_t cap);

#endif
