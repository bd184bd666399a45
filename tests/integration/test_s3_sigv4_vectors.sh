#!/usr/bin/env bash
# The strict SigV4 front of the S3 test rig is only worth something if its
# signature code is right: check it against AWS's published test vectors
# (tests/s3/sigv4_vectors.json) with node's own test runner.
set -u
SRC=${SMTOP_SRC:-$(cd "$(dirname "$0")/../.." && pwd)}
if ! command -v node >/dev/null 2>&1; then
    echo "SKIPPED: node not installed"
    exit 77
fi
exec node --test "$SRC/tests/s3/sigv4.test.js"
