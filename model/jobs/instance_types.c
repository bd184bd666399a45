/* instance_types: the built-in ml.* table; see instance_types.h. */
#include "model/jobs/instance_types.h"

#include <string.h>

typedef struct itype {
    const char *name;
    short gpus, vcpus;
} itype;

static const itype types[] = {
    {"ml.p2.xlarge", 1, 4},       {"ml.p2.8xlarge", 8, 32},     {"ml.p2.16xlarge", 16, 64},
    {"ml.p3.2xlarge", 1, 8},      {"ml.p3.8xlarge", 4, 32},     {"ml.p3.16xlarge", 8, 64},
    {"ml.p3dn.24xlarge", 8, 96},  {"ml.p4d.24xlarge", 8, 96},   {"ml.p4de.24xlarge", 8, 96},
    {"ml.p5.48xlarge", 8, 192},   {"ml.p5e.48xlarge", 8, 192},  {"ml.p5en.48xlarge", 8, 192},
    {"ml.g4dn.xlarge", 1, 4},     {"ml.g4dn.2xlarge", 1, 8},    {"ml.g4dn.4xlarge", 1, 16},
    {"ml.g4dn.8xlarge", 1, 32},   {"ml.g4dn.12xlarge", 4, 48},  {"ml.g4dn.16xlarge", 1, 64},
    {"ml.g5.xlarge", 1, 4},       {"ml.g5.2xlarge", 1, 8},      {"ml.g5.4xlarge", 1, 16},
    {"ml.g5.8xlarge", 1, 32},     {"ml.g5.12xlarge", 4, 48},    {"ml.g5.16xlarge", 1, 64},
    {"ml.g5.24xlarge", 4, 96},    {"ml.g5.48xlarge", 8, 192},   {"ml.g6.xlarge", 1, 4},
    {"ml.g6.2xlarge", 1, 8},      {"ml.g6.4xlarge", 1, 16},     {"ml.g6.8xlarge", 1, 32},
    {"ml.g6.12xlarge", 4, 48},    {"ml.g6.16xlarge", 1, 64},    {"ml.g6.24xlarge", 4, 96},
    {"ml.g6.48xlarge", 8, 192},   {"ml.trn1.2xlarge", 0, 8},    {"ml.trn1.32xlarge", 0, 128},
    {"ml.trn1n.32xlarge", 0, 128}, {"ml.m4.xlarge", 0, 4},      {"ml.m4.2xlarge", 0, 8},
    {"ml.m4.4xlarge", 0, 16},     {"ml.m4.10xlarge", 0, 40},    {"ml.m4.16xlarge", 0, 64},
    {"ml.m5.large", 0, 2},        {"ml.m5.xlarge", 0, 4},       {"ml.m5.2xlarge", 0, 8},
    {"ml.m5.4xlarge", 0, 16},     {"ml.m5.12xlarge", 0, 48},    {"ml.m5.24xlarge", 0, 96},
    {"ml.c4.xlarge", 0, 4},       {"ml.c4.2xlarge", 0, 8},      {"ml.c4.4xlarge", 0, 16},
    {"ml.c4.8xlarge", 0, 36},     {"ml.c5.xlarge", 0, 4},       {"ml.c5.2xlarge", 0, 8},
    {"ml.c5.4xlarge", 0, 16},     {"ml.c5.9xlarge", 0, 36},     {"ml.c5.18xlarge", 0, 72},
    {"ml.c5n.xlarge", 0, 4},      {"ml.c5n.2xlarge", 0, 8},     {"ml.c5n.4xlarge", 0, 16},
    {"ml.c5n.9xlarge", 0, 36},    {"ml.c5n.18xlarge", 0, 72},   {"ml.r5.large", 0, 2},
    {"ml.r5.xlarge", 0, 4},       {"ml.r5.2xlarge", 0, 8},      {"ml.r5.4xlarge", 0, 16},
    {"ml.r5.12xlarge", 0, 48},    {"ml.r5.24xlarge", 0, 96},
};

int instance_types_lookup(const char *type, int *gpus, int *vcpus)
{
    for (size_t i = 0; type && i < sizeof types / sizeof types[0]; i++)
        if (!strcmp(types[i].name, type)) {
            *gpus = types[i].gpus;
            *vcpus = types[i].vcpus;
            return 1;
        }
    return 0;
}
