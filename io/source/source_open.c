/* source_open: command-line SOURCE → source implementation, and the
 * transport options; see source_open.h. */
#include "io/source/source_open.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "io/source/source_s3.h"

void source_opts_init(source_opts *o)
{
    memset(o, 0, sizeof *o);
    o->parallel = 8;
    o->cache_size = 1LL << 30;
}

/* "512M", "2G", "1048576" → bytes; -1 when malformed. */
static int64_t opts_parse_size(const char *v)
{
    char *end;
    errno = 0;
    double d = strtod(v, &end);
    int64_t mul = 1;
    if (errno || end == v || d < 0)
        return -1;
    switch (*end) {
    case 'K': case 'k': mul = 1LL << 10; end++; break;
    case 'M': case 'm': mul = 1LL << 20; end++; break;
    case 'G': case 'g': mul = 1LL << 30; end++; break;
    case 'T': case 't': mul = 1LL << 40; end++; break;
    default: break;
    }
    if (*end == 'i' || *end == 'B')
        end += (*end == 'i' && end[1] == 'B') ? 2 : 1;
    return *end ? -1 : (int64_t)(d * (double)mul);
}

/* Accepts "--opt VALUE" and "--opt=VALUE"; returns the value or NULL. */
static const char *opts_value(const char *name, int argc, char **argv, int *i,
                              int *matched)
{
    size_t nl = strlen(name);
    const char *a = argv[*i];
    *matched = 0;
    if (strncmp(a, name, nl) != 0 || (a[nl] != '\0' && a[nl] != '='))
        return NULL;
    *matched = 1;
    if (a[nl] == '=')
        return a + nl + 1;
    if (*i + 1 >= argc)
        return NULL;
    return argv[++*i];
}

int source_opts_parse_traces(source_opts *o, int argc, char **argv, int *i, sm_err *err)
{
    int m;
    const char *v = opts_value("--traces", argc, argv, i, &m);
    if (!m)
        return 0;
    if (!v || !*v)
        return sm_err_set(err, SM_ERR_USAGE, "--traces needs a directory, s3:// prefix or file");
    o->traces = v;
    return 1;
}

const char *source_opts_traces_help(void)
{
    return "  --traces PATH        also read the PyTorch profiler traces (*.pt.trace.json[.gz])\n"
           "                       in this directory, s3:// prefix, file or .tar.gz archive\n";
}

int source_opts_parse(source_opts *o, int argc, char **argv, int *i, sm_err *err)
{
    static const char *const names[] = {"--profile", "--region", "--endpoint-url",
                                        "--s3-parallel", "--cache-size"};
    int m;
    if (!strcmp(argv[*i], "--no-cache")) {
        o->no_cache = 1;
        return 1;
    }
    for (size_t k = 0; k < sizeof names / sizeof names[0]; k++) {
        const char *v = opts_value(names[k], argc, argv, i, &m);
        if (!m)
            continue;
        if (!v || !*v)
            return sm_err_set(err, SM_ERR_USAGE, "%s needs a value", names[k]);
        if (k == 0)
            o->profile = v;
        else if (k == 1)
            o->region = v;
        else if (k == 2)
            o->endpoint_url = v;
        else if (k == 3) {
            char *end;
            long p = strtol(v, &end, 10);
            if (*end || p < 1 || p > 64)
                return sm_err_set(err, SM_ERR_USAGE, "--s3-parallel wants a "
                                  "number from 1 to 64, not '%s'", v);
            o->parallel = (int)p;
        } else if ((o->cache_size = opts_parse_size(v)) <= 0) {
            return sm_err_set(err, SM_ERR_USAGE, "--cache-size wants a size "
                              "like 512M or 2G, not '%s'", v);
        }
        return 1;
    }
    return 0;
}

const char *source_opts_help(void)
{
    return "  --profile NAME       AWS profile (default: AWS_PROFILE or 'default')\n"
           "  --region REGION      AWS region (default: AWS_REGION, AWS_DEFAULT_REGION,\n"
           "                       the profile's region, then us-east-1)\n"
           "  --endpoint-url URL   S3-compatible endpoint (also AWS_ENDPOINT_URL_S3,\n"
           "                       AWS_ENDPOINT_URL); path-style addressing\n"
           "  --s3-parallel N      parallel S3 transfers, 1-64 (default 8)\n"
           "  --cache-size SIZE    on-disk cache bound, e.g. 512M (default 1G)\n"
           "  --no-cache           do not read or write the local object cache\n";
}

source *source_open(const char *spec, const source_opts *o, sm_err *err)
{
    source_opts def;
    if (!o) {
        source_opts_init(&def);
        o = &def;
    }
    if (!strncmp(spec, "s3://", 5))
        return source_s3_open(spec, o, NULL, err);
    if (!strncmp(spec, "S3://", 5) || strstr(spec, "://")) {
        sm_err_set(err, SM_ERR_USAGE, "'%s': only s3://bucket/prefix URLs and "
                   "local directories are supported", spec);
        return NULL;
    }
    return o->wait_for_data ? source_local_open_pending(spec, err)
                            : source_local_open(spec, err);
}
