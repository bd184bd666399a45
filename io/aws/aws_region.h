/* aws_region: which region to sign for, resolved like the AWS CLI:
 * --region, AWS_REGION, AWS_DEFAULT_REGION, the profile's `region` in the
 * config file (AWS_CONFIG_FILE or ~/.aws/config; profile from --profile,
 * else AWS_PROFILE, else "default"), then "us-east-1". */
#ifndef SMTOP_AWS_REGION_H
#define SMTOP_AWS_REGION_H

#include <stddef.h>

/* Writes the region into out and, when origin is non-NULL, where it came
 * from ("--region", "AWS_REGION", "profile 'x' in /path", "default") into
 * origin. cli_region/profile may be NULL. Never fails. */
void aws_region_resolve(const char *cli_region, const char *profile,
                        char *out, size_t cap, char *origin, size_t ocap);

/* The profile name in force: explicit, else AWS_PROFILE, else "default". */
const char *aws_region_profile_name(const char *explicit_profile);

#endif
