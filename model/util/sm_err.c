#include "model/util/sm_err.h"

#include <stdio.h>

int sm_err_set(sm_err *err, int code, const char *fmt, ...)
{
    if (!err)
        return -1;
    err->code = code;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err->msg, sizeof err->msg, fmt, ap);
    va_end(ap);
    return -1;
}

void sm_err_clear(sm_err *err)
{
    if (err) {
        err->code = SM_OK;
        err->msg[0] = '\0';
    }
}
