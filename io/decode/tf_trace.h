/* tf_trace: TensorFlow detailed-profiling traces → sm_event.
 *
 *   framework/tensorflow/detailed_profiling/<YYYYMMDDHH>/<step, 9 digits>/
 *       plugins/profile/<date>/<host>.trace.json.gz
 *
 * A gzip'd JSON object {"displayTimeUnit", "metadata", "traceEvents":[...]}
 * as TensorBoard's profile plugin writes it. `ts`/`dur` are microseconds
 * (fractional; displayTimeUnit only changes how a viewer labels its axis).
 * process_name metadata names each pid ("/host:CPU", "/device:GPU:0 ...");
 * that name becomes the event's phase. X events carry dur; B/E pairs are
 * matched per (pid, tid), innermost first, and an E may lack a name. Other
 * phases (counters, flows, instants, TF's trailing `{}`) are skipped.
 *
 * Clock. TF normalises `ts` to the start of the profiler session, so a
 * trace alone does not say when it ran. smdebug records the session start
 * in the step directory, in the name of an empty
 * `<writer>_<start_us>_<end_us>.metadata` file (tf_meta.h places a trace
 * from it, node included); the caller passes that start as base_us. When
 * there is no such record, the caller may anchor the session to the start
 * of the same step's Step event on the same node (the ingest path does:
 * scan_decode_step_start):
 * the profiler is started by the step-begin hook, so this is off by the
 * hook's own latency only. Traces whose `ts` are already epoch
 * microseconds (any ts ≥ 1e15, i.e. after 2001) are used as they are.
 */
#ifndef SMTOP_TF_TRACE_H
#define SMTOP_TF_TRACE_H

#include <stddef.h>
#include <stdint.h>

#include "model/records.h"
#include "model/util/sm_err.h"

/* Largest decompressed trace accepted (a guard against gzip bombs). */
#define TF_TRACE_MAX_BYTES ((size_t)512 << 20)
/* base_us value meaning "no time base known". */
#define TF_TRACE_NO_BASE INT64_MIN

typedef void (*tf_trace_sink)(void *ud, const sm_event *ev);

/* Decompresses `gz` (len bytes, one or more gzip members) and emits every
 * complete event to sink, in file order, with node = `node` and step =
 * `step` (from the path; args.step_num overrides it when present). Times
 * are kept relative to the profiler session (base 0) unless already on the
 * epoch clock. sm_event strings are valid only during the sink call.
 * Returns the number of events emitted, or -1 with err set (SM_ERR_FORMAT:
 * truncated/corrupt gzip, bad JSON, no traceEvents array, output over
 * TF_TRACE_MAX_BYTES; SM_ERR_NOMEM). Nothing is emitted on failure. */
int tf_trace_load(const void *gz, size_t len, const char *node, int64_t step,
                  tf_trace_sink sink, void *ud, sm_err *err);

/* Same, placing session-relative times at base_us + ts. With base_us ==
 * TF_TRACE_NO_BASE a session-relative trace fails (SM_ERR_NOTFOUND: no time
 * base; the message names node and step) rather than landing in 1970. */
int tf_trace_load_at(const void *gz, size_t len, const char *node,
                     int64_t step, int64_t base_us, tf_trace_sink sink,
                     void *ud, sm_err *err);

/* Inflates a gzip buffer into a new malloc'd buffer (*out, *out_len; a NUL
 * follows the data, not counted). Fails (-1, err) on truncated or corrupt
 * input or when the output would exceed `max` bytes; *out is untouched. */
int tf_trace_gunzip(const void *gz, size_t len, size_t max, char **out,
                    size_t *out_len, sm_err *err);

/* Step number from a TF trace key: the 9-digit directory after the hour
 * directory under detailed_profiling/. -1 when absent. */
int64_t tf_trace_step_from_key(const char *key);

#endif
