/* aws_imds: EC2 instance-role credentials through IMDSv2.
 *
 * PUT /latest/api/token (session token, 6 h TTL), then
 * GET /latest/meta-data/iam/security-credentials/ (role name) and
 * GET .../<role> (JSON: AccessKeyId, SecretAccessKey, Token, Expiration),
 * each with the token header. Endpoint: AWS_EC2_METADATA_SERVICE_ENDPOINT,
 * default http://169.254.169.254. Short timeouts (1 s connect, 2 s total)
 * so that a machine that is not on EC2 is not held up. */
#ifndef SMTOP_AWS_IMDS_H
#define SMTOP_AWS_IMDS_H

#include <stddef.h>
#include <stdint.h>

#include "model/util/sm_err.h"

typedef struct aws_imds_creds {
    char akid[128];
    char secret[256];
    char token[4096];
    int64_t expires_us;   /* 0 when the response had no Expiration */
} aws_imds_creds;

/* 1 when AWS_EC2_METADATA_DISABLED is "true" (any case). */
int aws_imds_disabled(void);

/* Fetches role credentials. Returns 0, or -1 with err (SM_ERR_NOTFOUND
 * when there is no metadata service or no role, SM_ERR_DENIED when the
 * service rejected the token). Error text never contains credentials. */
int aws_imds_fetch(aws_imds_creds *out, sm_err *err);

/* Reads the role-credentials JSON the service returns (AccessKeyId,
 * SecretAccessKey, Token, optional Expiration). 0, or -1 with err
 * (SM_ERR_DENIED) when a field is missing, not a string or too long for
 * out; out is filled only on success. */
int aws_imds_parse(const char *text, aws_imds_creds *out, sm_err *err);

#endif
