#!/usr/bin/env bash
# CLI tests of `paperball solve --algo pn`: the value agrees with alpha-beta
# (--algo ab) on starts and played positions of every rule set, the output
# shapes, and the exit statuses of bad options and of a stopped search.
set -u
. "$(dirname "$0")/lib/check.sh"
field() { python3 -c "import json,sys; d=json.load(sys.stdin); print($1)"; }

for args in "--field 2,4,4" "--field 2,4,4 --record c4-b5" "--rules hockey --field 2,4,6 --setback 0" \
            "--rules hockey --field 2,4,6 --setback 0 --dead-end loss" "--rules hockey --field 2,4,4 --setback 1" \
            "--rules triple --field 2,4,4" "--rules triple --field 2,4,6"; do
  pn=$("$pb" solve $args --algo pn --quiet --json | field "d['value']")
  ab=$("$pb" solve $args --algo ab --quiet --json | field "d['value']")
  check "solve $args: pn = ab" "$ab" "$pn"
  check "solve $args: pn table 1K = default" "$pn" "$("$pb" solve $args --algo pn --memory 1K --quiet --json | field "d['value']")"
done

t=$("$pb" solve --field 2,4,4 --algo pn --quiet)
contains "text value" "value        win for Top" "$t"
contains "text method" "proof-number search" "$t"
j=$("$pb" solve --field 2,4,4 --algo=pn --quiet --json | field "d['algo'], d['stopped'], d['root_pn']")
check "json fields" "pn False 0" "$j"

check "bad --algo" 2 "$(status "$pb" solve --field 2,4,4 --algo xy)"
check "--algo without value" 2 "$(status "$pb" solve --field 2,4,4 --algo)"
check "--algo pn with --svg" 0 "$(status "$pb" solve --field 2,4,4 --algo pn --svg x.svg)"
contains "--algo pn draws its line" "<svg" "$(cat x.svg)"
for args in "--field 2,4,4" "--rules hockey --field 2,4,6 --setback 0" "--rules triple --field 2,4,6"; do
  check "solve $args: pn 2 threads = 1 thread" \
    "$("$pb" solve $args --first-turns --quiet --json | field "d['value'], [t['value'] for t in d['first_turns']]")" \
    "$("$pb" solve $args --first-turns --threads 2 --quiet --json | field "d['value'], [t['value'] for t in d['first_turns']]")"
  check "solve $args: pn 2 threads value" "$("$pb" solve $args --algo ab --quiet --json | field "d['value']")" \
    "$("$pb" solve $args --threads 2 --quiet --json | field "d['value']")"
done
check "default: pn" "pn" "$("$pb" solve --field 2,4,4 --quiet --json | field "d['algo']")"
# Keys: reduced (default), reduced everywhere, off, full: the same values
# with either method.
ab_full=$("$pb" solve --field 2,6,8 --record "d6-d5 d5-e6 e6-f6 f6-g6-f7 f7-f6-g7-f8 f8-g8-f7-e7 e7-f8-g9-f10-f9 f9-f8-f7-e6-e7-d6-e6-f5 f5-f6-g5-f5-e4
e4-d5-c4 c4-c5 c5-d5-e5 e5-f5-g4-f3 f3-f2-g3-f3-e4-d4 d4-c5-d6-e5-e4-e3 e3-e2-d3 d3-d4-c4-b3 b3-b2-a3-b3-c3" \
  --algo ab --full-keys --quiet)
contains "the played position is solved" "value" "$ab_full"
ab_full=$(echo "$ab_full" | awk '$1 == "value" {print $2}')
rec="d6-d5 d5-e6 e6-f6 f6-g6-f7 f7-f6-g7-f8 f8-g8-f7-e7 e7-f8-g9-f10-f9 f9-f8-f7-e6-e7-d6-e6-f5 f5-f6-g5-f5-e4
e4-d5-c4 c4-c5 c5-d5-e5 e5-f5-g4-f3 f3-f2-g3-f3-e4-d4 d4-c5-d6-e5-e4-e3 e3-e2-d3 d3-d4-c4-b3 b3-b2-a3-b3-c3"
for algo in pn ab; do
  want=$("$pb" solve --field 2,6,8 --record "$rec" --algo $algo --full-keys --quiet --json | field "d['value']")
  check "solve (2;6;8) $algo full keys: the value of alpha-beta with full keys" "$ab_full" "$want"
  for k in "--reduced-keys 4096" "--reduced-keys 8" "--reduced-keys off" ""; do
    check "solve (2;6;8) $algo $k = full keys" "$want" \
      "$("$pb" solve --field 2,6,8 --record "$rec" --algo $algo $k --quiet --json | field "d['value']")"
  done
done
# The slack of the 1+e rule: the same values as alpha-beta with full keys
# (the independent method above), for e = 0, 1/16, 1 and the default.
for e in 0 0.0625 1; do
  check "solve (2;6;8) --slack $e = alpha-beta" "$ab_full" \
    "$("$pb" solve --field 2,6,8 --record "$rec" --slack $e --quiet --json | field "d['value']")"
done
check "bad --slack" 2 "$(status "$pb" solve --field 2,4,4 --slack much)"
check "--slack -1" 2 "$(status "$pb" solve --field 2,4,4 --slack -1)"
check "--slack with --algo ab" 2 "$(status "$pb" solve --field 2,4,4 --slack 1 --algo ab)"
check "--slack with --batch" 2 "$(echo "" | status "$pb" solve --field 2,4,4 --batch - --slack 1)"
check "bad --reduced-keys" 2 "$(status "$pb" solve --field 2,4,4 --reduced-keys many)"
check "--reduced-keys 0" 2 "$(status "$pb" solve --field 2,4,4 --reduced-keys 0)"
check "--full-keys with --batch" 2 "$(echo "" | status "$pb" solve --field 2,4,4 --batch - --full-keys)"

# A search stopped by its time limit says "unknown" and exits 1.
"$pb" solve --field 2,8,10 --algo pn --time-limit 0.2 --quiet --json > out.json 2>/dev/null
check "stopped: status" 3 "$?"
check "stopped: value" "unknown True" "$(field "d['value'], d['stopped']" < out.json)"
# --first-turns on 2 threads: the classes' searches, made after the value,
# stop by the solve's time limit, not one that runs from their making (book
# (2;6;4): its value takes about 1.3 s of 2 threads, its classes some 5 s
# more; once the classes ran on for as long as the value had taken).
"$pb" solve --field 2,6,4 --first-turns --threads 2 --time-limit 3 --quiet --json > tl.json 2>/dev/null
st=$?
[ $st -eq 3 ] || [ $st -eq 0 ] || fail "--first-turns, 2 threads, --time-limit 3: status $st"
check "--first-turns, 2 threads: stops by its time limit" True \
    "$(field "d['seconds'] < 3.5" < tl.json)"

# Freed memory filled with a byte pattern (glibc's MALLOC_PERTURB_): a
# one-thread solve searches the same nodes and plays the same line.  A read
# of freed memory changes them: the line's table lookups once used a key
# whose words were freed first (book (2;6;4): 10.5M nodes instead of 3.04M,
# another line).
same_run() { # OPTIONS...: nodes, value, classes and line, freed memory untouched or filled
  local a b
  a=$("$pb" solve "$@" --quiet --json | field "d['nodes'], d['value'], d['pv'], [(t['route'], t['value']) for t in d.get('first_turns', [])]")
  b=$(MALLOC_PERTURB_=165 "$pb" solve "$@" --quiet --json | field "d['nodes'], d['value'], d['pv'], [(t['route'], t['value']) for t in d.get('first_turns', [])]")
  check "solve $*: the same with freed memory filled" "$a" "$b"
}
same_run --field 2,4,4
same_run --field 2,4,6
same_run --field 2,4,6 --first-turns
same_run --rules hockey --field 2,4,6 --setback 0
same_run --rules triple --field 2,4,6
same_run --field 2,4,6 --algo ab
finish
