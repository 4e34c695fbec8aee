#!/usr/bin/env bash
# Installs Paperball's build and test dependencies from Debian's packages.
set -euo pipefail
# chromium and nodejs: the replayer's browser test (tests/cli/browser.sh);
# clang-format: the style check of .ci/run (scripts/format.sh); jq and bc:
# the benchmark scripts and tests/cli/model.sh.
pkgs="build-essential cmake pkg-config clang-format libgmp-dev libzstd-dev libxxhash-dev libcmocka-dev libopenmpi-dev openmpi-bin librsvg2-bin chromium nodejs jq bc"
missing=""
for p in $pkgs; do
  dpkg -s "$p" >/dev/null 2>&1 || missing="$missing $p"
done
if [ -n "$missing" ]; then
  SUDO=""
  [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq $missing >/dev/null
fi
