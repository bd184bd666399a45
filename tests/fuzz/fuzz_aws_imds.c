/* Fuzz target: the EC2 metadata service's role-credentials JSON
 * (aws_imds_parse). Success means three NUL-terminated fields within
 * their buffers; failure means an error message and out untouched. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "io/aws/aws_imds.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = malloc(size + 1);
    if (!text)
        return 0;
    memcpy(text, data, size);
    text[size] = '\0';
    static aws_imds_creds out, before;
    memset(&out, 0x5a, sizeof out);
    before = out;
    sm_err err = {0};
    if (aws_imds_parse(text, &out, &err) == 0) {
        if (!memchr(out.akid, '\0', sizeof out.akid) ||
            !memchr(out.secret, '\0', sizeof out.secret) ||
            !memchr(out.token, '\0', sizeof out.token))
            abort();
    } else if (!err.msg[0] || memcmp(&out, &before, sizeof out) != 0) {
        abort();
    }
    free(text);
    return 0;
}
