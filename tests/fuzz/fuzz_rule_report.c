/* Fuzz target: a SageMaker ProfilerReport <Rule>.json body → verdict; also
 * the key → rule-name parser on the same bytes. */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "io/decode/rule_report.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    rule_verdict v;
    sm_err err;
    if (rule_verdict_parse("rule-output/ProfilerReport-1/profiler-output/"
                           "profiler-reports/CPUBottleneck.json",
                           data, size, &v, &err) == 0)
        rule_verdict_clear(&v);
    char key[512], name[64];
    size_t n = size < sizeof key - 1 ? size : sizeof key - 1;
    memcpy(key, data, n);
    key[n] = '\0';
    rule_report_key_rule(key, name, sizeof name);
    return 0;
}
