#!/usr/bin/env bash
# format.sh - the C sources in the house style of .clang-format.
#   bash scripts/format.sh          reformat every tracked .c and .h file in place
#   bash scripts/format.sh --check  list the files that are not formatted; exit 1 if any
set -euo pipefail
cd "$(dirname "$0")/.."
command -v clang-format > /dev/null || { echo "format.sh: clang-format is not installed (scripts/setup.sh)" >&2; exit 2; }
mapfile -t files < <(git ls-files '*.c' '*.h')
if [ "${1:-}" = "--check" ]; then
  bad=0
  for f in "${files[@]}"; do
    if ! clang-format --dry-run --Werror "$f" > /dev/null 2>&1; then
      echo "not formatted: $f (bash scripts/format.sh)"
      bad=1
    fi
  done
  [ "$bad" = 0 ] && echo "format: ${#files[@]} files formatted"
  exit "$bad"
fi
clang-format -i "${files[@]}"
