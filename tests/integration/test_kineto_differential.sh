#!/usr/bin/env bash
# The Kineto decoder against an independent reference: kineto_cdump (the
# C decoder, fed in pieces of 1, 7, 4096 bytes and whole) must print
# exactly what tests/tools/kineto_dump.py (python3's json module) prints,
# event by event and the metadata, on the hand-written edge cases of the
# fuzz corpus and on every real sample rewritten in every layout a trace
# may have (kineto_variants.py: metadata before/after traceEvents,
# pretty-printed, one line, .gz and plain, python_function kept or not).
# The larger samples are it_kineto_differential_large's, so that each test
# stays within ctest's time limit on a loaded machine.
. "$SMTOP_SRC/tests/integration/kineto_diff_lib.sh"
kdiff_edge
kdiff_samples_rest
