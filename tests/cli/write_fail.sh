#!/bin/bash
# write_fail.sh - every command whose output cannot be written (standard
# output on /dev/full, a file written to /dev/full) exits with the
# write-failure status 5 and says so, instead of reporting
# success over lost results.
# Usage: bash write_fail.sh /path/to/paperball   (run in a scratch directory)
. "$(dirname "$0")/lib/check.sh"
[ -w /dev/full ] || skip "no /dev/full here"

"$pb" tb build --field 2,2,2 --out t.pbt --quiet > /dev/null || fail "tb build"
printf 'b4-b5\n\nb4-c5-b6\n' > recs.txt

# One run per command (and per output form): stdout to /dev/full.
runs=(
  "info" "info --json" "show" "show --unicode" "moves" "moves --json" "perft --depth 2" "perft --depth 2 --json"
  "solve --field 2,2,4" "solve --field 2,2,4 --json" "solve --field 2,2,4 --first-turns"
  "solve --field 2,2,4 --all-routes --json" "solve --field 2,2,4 --shortest" "solve --field 2,2,4 --algo pn"
  "solve --field 2,2,4 --batch recs.txt" "moves --field 2,2,4 --batch recs.txt"
  "perft --field 2,2,4 --depth 1 --batch recs.txt"
  "enumerate --field 2,2,2" "enumerate --field 2,2,2 --csv" "enumerate --field 2,2,2 --json"
  "prove --claim empty-count --field 2,6,8" "prove --claim empty-count --field 2,6,8 --json" "prove --odd"
  "tb probe t.pbt" "tb stats t.pbt" "tb verify t.pbt" "tb estimate --field 2,2,2" "tb build --field 2,2,2 --out u.pbt"
  "bench signature" "--help" "--version" "solve --help"
)
n=0
for r in "${runs[@]}"; do
  # shellcheck disable=SC2086
  "$pb" $r > /dev/full 2> err.txt; got=$?
  check "$r > /dev/full: exit 5" 5 "$got"
  grep -q '^paperball: cannot write' err.txt || fail "$r: no note ($(tail -n 1 err.txt))"
  n=$((n + 1))
done
printf 'quit\n' | "$pb" play > /dev/full 2> err.txt
check "play > /dev/full: exit 5" 5 $?

# Files written by an option.
check "show --svg /dev/full" 5 "$(status "$pb" show --svg /dev/full)"
check "show --html /dev/full" 5 "$(status "$pb" show --html /dev/full)"
check "solve --svg /dev/full" 5 "$(status "$pb" solve --field 2,2,4 --svg /dev/full)"
check "prove --odd --svg /dev/full" 5 "$(status "$pb" prove --odd --svg /dev/full)"
# A file that is written whole and renamed into place (a tablebase) must
# not rename over something that is not a regular file (as root, /dev/full
# itself would be replaced): a named pipe stands in for the device here.
mkfifo pipe.pbt
check "tb build --out a pipe: refused (exit 2)" 2 "$(status "$pb" tb build --field 2,2,2 --out pipe.pbt)"
[ -p pipe.pbt ] || fail "tb build replaced the pipe"
ls pipe.pbt.* > /dev/null 2>&1 && fail "tb build left layer files beside the pipe"
check "commands checked" "${#runs[@]}" "$n"
finish
