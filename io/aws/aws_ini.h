/* aws_ini: reads values from the AWS CLI's INI files (~/.aws/credentials,
 * ~/.aws/config) the way botocore does: "[name]" sections in credentials,
 * "[profile name]" (or "[default]") in config, "key = value" lines, '#'
 * and ';' comments, indented lines belong to a nested block and are
 * skipped. Values are never logged by this module. */
#ifndef SMTOP_AWS_INI_H
#define SMTOP_AWS_INI_H

#include <stddef.h>

typedef enum aws_ini_kind {
    AWS_INI_CREDENTIALS = 0,  /* sections are bare profile names */
    AWS_INI_CONFIG            /* "[profile x]", except "[default]" */
} aws_ini_kind;

/* Looks up key in the profile's section of an in-memory INI text.
 * Returns 1 and copies the trimmed value into out (truncated to cap),
 * 0 when absent. */
int aws_ini_lookup(const char *text, aws_ini_kind kind, const char *profile,
                   const char *key, char *out, size_t cap);

/* 1 when the text has a section for the profile, else 0. */
int aws_ini_has_profile(const char *text, aws_ini_kind kind,
                        const char *profile);

/* Reads a whole file (at most 1 MiB) into a new NUL-terminated string;
 * NULL when it cannot be read. Caller frees. */
char *aws_ini_read_file(const char *path);

/* The credentials / config file path: AWS_SHARED_CREDENTIALS_FILE /
 * AWS_CONFIG_FILE, else ~/.aws/credentials / ~/.aws/config. Returns out,
 * or NULL when neither the variable nor HOME is set. */
char *aws_ini_path(aws_ini_kind kind, char *out, size_t cap);

#endif
