/* sampling: SageMaker's sampling intervals; see sampling.h. */
#include "model/series/sampling.h"

#include <math.h>
#include <stddef.h>

int64_t sampling_snap_interval(double med)
{
    /* SageMaker's sampling intervals: the median gap snapped to the
     * nearest of them (by ratio), so pauses in the data (a gap of hours)
     * do not pass for the interval and a jittery 499.7 ms stays 500 ms */
    static const int64_t allowed[] = {100000, 200000, 500000, 1000000,
                                      5000000, 60000000};
    const size_t na = sizeof allowed / sizeof allowed[0];
    if (med < allowed[0] * 0.75)
        return (int64_t)med;   /* faster than SageMaker samples: trust the data */
    size_t best = 0;
    for (size_t i = 1; i < na; i++)
        if (fabs(log(med / (double)allowed[i])) < fabs(log(med / (double)allowed[best])))
            best = i;
    return allowed[best];
}
