/* sm_err: the one error carrier of every layer.
 *
 * A function that can fail takes `sm_err *err` last, returns -1 (or NULL)
 * and fills err->msg with one line the user can act on ("403 from S3: check
 * credentials"). Callers may pass NULL when they only need the return value.
 * Secrets never go into msg. */
#ifndef SMTOP_SM_ERR_H
#define SMTOP_SM_ERR_H

#include <stdarg.h>

enum sm_err_code {
    SM_OK = 0,
    SM_ERR_IO,        /* local read/write failed */
    SM_ERR_NOTFOUND,  /* file/key/bucket does not exist */
    SM_ERR_DENIED,    /* permission / credentials */
    SM_ERR_NET,       /* transient network problem: retry later */
    SM_ERR_FORMAT,    /* bad bytes in a file */
    SM_ERR_USAGE,     /* bad command-line or config value */
    SM_ERR_NOMEM,
    SM_ERR_PARTIAL    /* a file's bytes end early: still being written while
                         the job runs, cut short (truncated) once it ended */
};

typedef struct sm_err {
    int code;        /* enum sm_err_code */
    char msg[512];
} sm_err;

/* Formats into err (if non-NULL) and returns -1, so callers can
 * `return sm_err_set(err, SM_ERR_IO, "cannot open %s: %s", p, strerror(errno));` */
int sm_err_set(sm_err *err, int code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
void sm_err_clear(sm_err *err);

#endif
