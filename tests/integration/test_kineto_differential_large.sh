#!/usr/bin/env bash
# it_kineto_differential on the larger Kineto samples (KDIFF_LARGE), a
# test of its own so that each stays within ctest's time limit.
. "$SMTOP_SRC/tests/integration/kineto_diff_lib.sh"
kdiff_samples $KDIFF_LARGE
