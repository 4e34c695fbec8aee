#!/usr/bin/env bash
# fuzz.sh - build the libFuzzer target for the game-record parser
# (tests/fuzz/record_fuzz.c) with clang and run it.
#
#   scripts/fuzz.sh [SECONDS] [WORKDIR]     (defaults: 60 s, build-fuzz/)
#   FUZZ_OPT=-O0 compiles faster (the default is -O1)
#
# The committed seeds in tests/fuzz/corpus/ are copied into WORKDIR/corpus,
# which collects what the fuzzer finds, so the repository is not touched.
# A crash is written to WORKDIR/crash-* and the script exits non-zero;
# copy it into tests/fuzz/corpus/ once fixed so CI replays it
# (tests/test_fuzz_replay.c).
set -euo pipefail
seconds=${1:-60}
here=$(cd "$(dirname "$0")/.." && pwd)
work=${2:-$here/build-fuzz}
cc=${CC_FUZZ:-clang}
mkdir -p "$work/corpus"
cp -n "$here"/tests/fuzz/corpus/* "$work/corpus/" 2>/dev/null || true
# The solver is C11 with the POSIX and GNU extensions it uses (mmap's
# MAP_ANONYMOUS), as the CMake build compiles it (CMAKE_C_EXTENSIONS).
sources=$(ls "$here"/solver/*.c)
# The libraries the solver links (as in CMakeLists.txt), by pkg-config.
libs=$(pkg-config --cflags --libs libzstd libxxhash)
"$cc" -std=gnu11 -g ${FUZZ_OPT:--O1} -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
    -fopenmp -I"$here/solver" "$here/tests/fuzz/record_fuzz.c" $sources $libs -lm -o "$work/record_fuzz"
cd "$work"
./record_fuzz -max_total_time="$seconds" -max_len=4096 -timeout=10 -print_final_stats=1 \
    -dict="$here/tests/fuzz/record.dict" -artifact_prefix="$work/" corpus
