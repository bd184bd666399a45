/* sampling: how SageMaker samples a device, shared by the model, the rules
 * and the job list — the usage bands smdebug's get_device_usage_stats
 * counts each sample in (above 90 %, 10 to 90 %, below 10 %: a series
 * counts them as samples arrive, series_count_bands) and the sampling
 * intervals SageMaker writes at (a median gap snapped to one of them). */
#ifndef SMTOP_SAMPLING_H
#define SMTOP_SAMPLING_H

#include <stdint.h>

#define SAMPLING_BAND_HIGH 90.0
#define SAMPLING_BAND_LOW 10.0

/* A series' sampling interval (µs) from the median gap between its
 * samples, med_us > 0: snapped to the nearest of SageMaker's 100 ms ..
 * 60 s by ratio, or med_us itself when faster than 75 ms. */
int64_t sampling_snap_interval(double med_us);

#endif
