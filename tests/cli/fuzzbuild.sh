#!/usr/bin/env bash
# fuzzbuild.sh - scripts/fuzz.sh builds the record-parser fuzzer and runs
# it (1 second here).  Skipped when clang with libFuzzer is not installed.
. "$(dirname "$0")/lib/check.sh"
root=$(cd "$(dirname "$0")/../.." && pwd)
if ! command -v "${CC_FUZZ:-clang}" > /dev/null \
   || ! echo 'int LLVMFuzzerTestOneInput(const char *d, long n) { (void)d; (void)n; return 0; }' \
        | "${CC_FUZZ:-clang}" -x c -fsanitize=fuzzer - -o /dev/null 2> /dev/null; then
  echo "skipped: no clang with libFuzzer"
  exit 0
fi
FUZZ_OPT=-O0 nice bash "$root/scripts/fuzz.sh" 1 "$PWD/fuzz" > fuzz.log 2>&1; st=$?
check "scripts/fuzz.sh builds and runs" 0 "$st"
[ "$st" -eq 0 ] || tail -5 fuzz.log
finish
