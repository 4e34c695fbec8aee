#!/usr/bin/env bash
# The main job: install the dependencies, build, solve the default field and
# show the result (text, and an SVG of the position with the best line).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build -j2 >/dev/null
field=${PAPERBALL_FIELD:-2;4;4}
echo "== paperball solve --field '$field'"
build/paperball solve --field "$field" --svg build/solved.svg
echo "== the position with the principal variation: build/solved.svg"
