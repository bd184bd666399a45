#!/usr/bin/env bash
# Installs what smtop needs to build (and, with --test, to run its tests)
# on a fresh Debian machine. Run as root. Idempotent.
set -euo pipefail
want_tests=0
[ "${1:-}" = "--test" ] && want_tests=1

# scdoc builds the man page; build-essential brings dpkg-dev (cpack -G DEB).
pkgs=(build-essential cmake pkg-config libncurses-dev libcurl4-openssl-dev
      libjansson-dev libzstd-dev zlib1g-dev libisal-dev ca-certificates scdoc)
if [ "$want_tests" = 1 ]; then
  # python3-botocore: tests/aws/server.py checks requests against its
  # SageMaker and CloudWatch models and recomputes SigV4 with its signer
  pkgs+=(libcmocka-dev tmux python3 time procps python3-jsonschema python3-botocore zsh
         bash-completion man-db)
  command -v node >/dev/null 2>&1 || pkgs+=(nodejs npm)
fi
export DEBIAN_FRONTEND=noninteractive
if [ "$(id -u)" = 0 ]; then SUDO=""; else SUDO="sudo"; fi
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${pkgs[@]}" >/dev/null

here=$(cd "$(dirname "$0")/.." && pwd)
if [ "$want_tests" = 1 ] && [ -f "$here/tests/s3/package-lock.json" ]; then
  npm ci --prefix "$here/tests/s3" --no-audit --no-fund --loglevel=error
fi
