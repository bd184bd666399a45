/* Fuzz target: the credentials chain reading the shared credentials and
 * config files (aws_creds_new), the files' bytes from the input: the
 * first byte splits it into the two files and picks the profile. The
 * environment's keys and the metadata service are switched off, so only
 * the file readers run. Either credentials with a non-empty key id and
 * secret, or an error with a message. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "io/aws/aws_creds.h"

static int fd_creds = -1, fd_conf = -1;

static int memfile(const char *name, const char *var)
{
    int fd = memfd_create(name, 0);
    char path[64];
    snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
    setenv(var, path, 1);
    return fd;
}

static void fill(int fd, const uint8_t *p, size_t n)
{
    if (ftruncate(fd, 0) != 0 || pwrite(fd, p, n, 0) != (ssize_t)n)
        abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (fd_creds < 0) {
        fd_creds = memfile("credentials", "AWS_SHARED_CREDENTIALS_FILE");
        fd_conf = memfile("config", "AWS_CONFIG_FILE");
        unsetenv("AWS_ACCESS_KEY_ID");
        unsetenv("AWS_SECRET_ACCESS_KEY");
        unsetenv("AWS_SESSION_TOKEN");
        unsetenv("AWS_PROFILE");
        setenv("AWS_EC2_METADATA_DISABLED", "true", 1);
        if (fd_creds < 0 || fd_conf < 0)
            abort();
    }
    if (size < 1)
        return 0;
    size_t cut = size > 1 ? (data[0] * (size - 1)) / 255 : 0;
    fill(fd_creds, data + 1, cut);
    fill(fd_conf, data + 1 + cut, size - 1 - cut);
    static const char *const profiles[] = {NULL, "dev", "default"};
    sm_err err = {0};
    aws_creds *c = aws_creds_new(profiles[data[0] % 3], &err);
    if (c) {
        aws_cred_set s;
        if (aws_creds_get(c, &s, &err) != 0 || !memchr(s.akid, '\0', sizeof s.akid) ||
            !memchr(s.secret, '\0', sizeof s.secret) || !memchr(s.token, '\0', sizeof s.token))
            abort();
        aws_creds_wipe(&s);
        aws_creds_free(c);
    } else if (!err.msg[0]) {
        abort();
    }
    return 0;
}
