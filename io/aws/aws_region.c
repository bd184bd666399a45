/* aws_region: region resolution order; see aws_region.h. */
#include "io/aws/aws_region.h"

#include <stdio.h>
#include <stdlib.h>

#include "io/aws/aws_ini.h"

const char *aws_region_profile_name(const char *explicit_profile)
{
    const char *env = getenv("AWS_PROFILE");
    if (explicit_profile && *explicit_profile)
        return explicit_profile;
    return env && *env ? env : "default";
}

static void region_set(char *out, size_t cap, const char *v, char *origin,
                       size_t ocap, const char *from)
{
    snprintf(out, cap, "%s", v);
    if (origin && ocap)
        snprintf(origin, ocap, "%s", from);
}

void aws_region_resolve(const char *cli_region, const char *profile,
                        char *out, size_t cap, char *origin, size_t ocap)
{
    static const char *const envs[] = {"AWS_REGION", "AWS_DEFAULT_REGION"};
    char path[4096], val[128], from[4200];
    if (cli_region && *cli_region) {
        region_set(out, cap, cli_region, origin, ocap, "--region");
        return;
    }
    for (size_t i = 0; i < 2; i++) {
        const char *v = getenv(envs[i]);
        if (v && *v) {
            region_set(out, cap, v, origin, ocap, envs[i]);
            return;
        }
    }
    const char *name = aws_region_profile_name(profile);
    if (aws_ini_path(AWS_INI_CONFIG, path, sizeof path)) {
        char *text = aws_ini_read_file(path);
        int found = aws_ini_lookup(text, AWS_INI_CONFIG, name, "region", val,
                                   sizeof val);
        free(text);
        if (found && val[0]) {
            snprintf(from, sizeof from, "profile '%s' in %s", name, path);
            region_set(out, cap, val, origin, ocap, from);
            return;
        }
    }
    region_set(out, cap, "us-east-1", origin, ocap, "default");
}
