#!/bin/bash
# match_tables.sh - scripts/match_tables.sh, the script that writes
# results/match.md and .csv, on tiny limits (1 s a solve, sides up to 4), in
# a copy of the scripts so that the repository's results stay as they are:
# each single-goal value against alpha-beta (the other search), each match
# value against the sign of its goal difference and the final score of its
# line of perfect play, a field over the limit recorded as stopped.
# Usage: bash match_tables.sh /path/to/paperball   (run in a scratch directory)
set -u
. "$(dirname "$0")/lib/check.sh"
copy_scripts
before=$(results_sum match.csv match.md)
bash repo/scripts/match_tables.sh --time-limit 1 --max-side 4 --build "$(dirname "$pb")" 2> tables.err
check "script: status" 0 $?
csv=repo/results/match.csv
# field status goal_difference value single_goal_value final_score, one line each
python3 -c '
import csv, sys
for r in csv.DictReader(open(sys.argv[1])):
    print("|".join([r["field"], r["status"], r["goal_difference"], r["value"], r["single_goal_value"],
                    r["line_final_score_top_bottom"]]))' "$csv" > rows.txt
check "a row per triple field of sides up to 4" "(2;2;2) (2;2;4) (2;4;4) (4;4;4)" "$(cut -d'|' -f1 rows.txt | tr '\n' ' ' | sed 's/ $//')"
solved=0
while IFS='|' read -r field status gd value single score; do
    f=${field#(}
    f=${f%)}
    check "$field: the single-goal value is alpha-beta's" \
        "$("$pb" solve --rules triple --field "$f" --algo ab --json --quiet | python3 -c 'import json, sys; print(json.load(sys.stdin)["value"])')" \
        "$single"
    [ "$status" = solved ] || continue
    solved=$((solved + 1))
    check "$field: the match value is the sign of the goal difference" \
        "$( ((gd > 0)) && echo win || { ((gd < 0)) && echo loss || echo draw; })" "$value"
    # The line of perfect play ends with Top (to move at the start) ahead by
    # the goal difference.
    check "$field: the line's final score has that difference" "$gd" \
        "$(echo "$score" | awk -F' : ' '{ print $1 - $2 }')"
done < rows.txt
check "fields solved within 1 s: at least the three smallest" yes "$([ "$solved" -ge 3 ] && echo yes || echo no)"
# Ctrl-C while (4;4;6) is solved (some seconds, below its 60 s): the solver
# exits 3 as at its time limit, so the script must write no page rather
# than record the field as stopped by the limit and go on.
rm -f repo/results/match.md repo/results/match.csv
ctrl_c int.log "(4;4;6)" bash repo/scripts/match_tables.sh --time-limit 60 --max-side 6 --build "$(dirname "$pb")"
check "Ctrl-C: status 3" 3 $?
check "Ctrl-C: says so" "scripts/match_tables.sh: stopped; no page written" "$(tail -1 int.log)"
check "Ctrl-C: no field after the one cut short" "(4;4;6)" "$(grep '^\[' int.log | tail -1 | cut -d' ' -f2-)"
check "Ctrl-C: no page" "" "$(ls repo/results)"
check "the repository's results untouched" "$before" "$(results_sum match.csv match.md)"
finish
