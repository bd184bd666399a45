/* decode_file: a test's or fuzzer's way through the decoder table
 * (io/decode/decoder.h) for one whole file, and a sink that puts Python
 * stats windows into a store. Header-only, for tests/unit and tests/fuzz. */
#ifndef SMTOP_TEST_DECODE_FILE_H
#define SMTOP_TEST_DECODE_FILE_H

#include "io/decode/decoder.h"
#include "model/pystats/pystats.h"

/* Reads data[0..len) as the file at key (its kind from its name) with its
 * decoder into out. 0, or -1 with err (no decoder reads such a key, or
 * the decoder's error). */
static inline int decode_file(const char *key, const void *data, size_t len,
                              const rec_sink *out, sm_err *err)
{
    key_info ki;
    keyname_parse(key, &ki);
    const decoder *d = decoder_for(&ki);
    if (!d)
        return sm_err_set(err, SM_ERR_FORMAT, "no decoder reads %s", key);
    return decoder_read_whole(d, &ki, key, data, len, out, err);
}

/* The same, a Python stats file's window into store s. */
static inline int decode_pystats(pystats_store *s, const char *key, const void *data, size_t len,
                                 sm_err *err)
{
    rec_sink out = {.ud = s, .pywindow = pystats_store_take};
    return decode_file(key, data, len, &out, err);
}

#endif
