/* aws_creds: AWS credentials resolved the way the AWS CLI does.
 *
 * Order: an explicit --profile wins over the environment; otherwise
 * AWS_ACCESS_KEY_ID + AWS_SECRET_ACCESS_KEY (+ AWS_SESSION_TOKEN); then the
 * profile (AWS_PROFILE or "default") from the credentials file
 * (AWS_SHARED_CREDENTIALS_FILE, ~/.aws/credentials) and then the config
 * file (AWS_CONFIG_FILE, ~/.aws/config, "[profile x]"), each with an
 * optional aws_session_token; then the EC2 instance role through IMDSv2
 * (unless AWS_EC2_METADATA_DISABLED=true), refreshed 5 minutes before it
 * expires. Secrets stay inside this module and the signing call: no
 * message, log or describe string ever contains them. */
#ifndef SMTOP_AWS_CREDS_H
#define SMTOP_AWS_CREDS_H

#include <stdint.h>

#include "model/util/sm_err.h"

typedef struct aws_creds aws_creds;

/* A snapshot for signing. Treat as secret: do not print, wipe after use
 * (aws_creds_wipe). */
typedef struct aws_cred_set {
    char akid[128];
    char secret[256];
    char token[4096];     /* "" without a session */
} aws_cred_set;

/* Resolves credentials now. profile may be NULL. Returns a provider the
 * caller owns, or NULL with err: SM_ERR_NOTFOUND (none anywhere; the
 * message lists where it looked), SM_ERR_USAGE (named profile missing). */
aws_creds *aws_creds_new(const char *profile, sm_err *err);
void aws_creds_free(aws_creds *c);

/* Copies the current credentials into out, refreshing instance-role
 * credentials that expire within 5 minutes. -1 with err if a needed
 * refresh failed (out is then left wiped). */
int aws_creds_get(aws_creds *c, aws_cred_set *out, sm_err *err);

/* Where the credentials came from, for messages: "profile 'dev'",
 * "environment variables", "the EC2 instance role". */
const char *aws_creds_origin(const aws_creds *c);
/* What the user should check: a file path or variable names. */
const char *aws_creds_where(const aws_creds *c);

void aws_creds_wipe(aws_cred_set *s);

#endif
