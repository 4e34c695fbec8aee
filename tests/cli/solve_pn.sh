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
# A search stopped by its time limit says "unknown" and exits 1.
"$pb" solve --field 2,8,10 --algo pn --time-limit 0.2 --quiet --json > out.json 2>/dev/null
check "stopped: status" 3 "$?"
check "stopped: value" "unknown True" "$(field "d['value'], d['stopped']" < out.json)"
finish
