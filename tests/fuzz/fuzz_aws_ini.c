/* Fuzz target: the AWS CLI's INI files as aws_ini reads them. The first
 * byte picks the file kind and one of a few profile names, the rest is
 * the file's text. A value found must be NUL-terminated within its
 * buffer, and a profile whose value is found must also be "there". */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "io/aws/aws_ini.h"

static const char *const profiles[] = {"default", "dev", "a b", "", "profile x"};
static const char *const keys[] = {"aws_access_key_id", "aws_secret_access_key",
                                   "aws_session_token", "region", ""};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    aws_ini_kind kind = (data[0] & 1) ? AWS_INI_CONFIG : AWS_INI_CREDENTIALS;
    const char *profile = profiles[(data[0] >> 1) % 5];
    char *text = malloc(size);
    if (!text)
        return 0;
    memcpy(text, data + 1, size - 1);
    text[size - 1] = '\0';
    int has = aws_ini_has_profile(text, kind, profile);
    for (size_t k = 0; k < sizeof keys / sizeof *keys; k++) {
        char out[64];
        memset(out, 'x', sizeof out);
        int found = aws_ini_lookup(text, kind, profile, keys[k], out, sizeof out);
        if (found && (!memchr(out, '\0', sizeof out) || !has))
            abort();
        char tiny[1];
        aws_ini_lookup(text, kind, profile, keys[k], tiny, sizeof tiny);
    }
    free(text);
    return 0;
}
