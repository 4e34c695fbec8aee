#!/bin/bash
# solve_tables.sh - scripts/solve_tables.sh, the script that writes
# results/solved.md and .csv, on tiny limits (1 s a field, sides up to 6),
# in a copy of the scripts so that the repository's results stay as they
# are: the values it records against the tablebase (a second, retrograde
# method) and, for triple, against alpha-beta; a field over the limit
# recorded as stopped, after which its rule set stops (--misses 1); the
# largest fields solved named at the top.  Then --table values (the value
# alone), against the solved table.
# Usage: bash solve_tables.sh /path/to/paperball   (run in a scratch directory)
set -u
. "$(dirname "$0")/lib/check.sh"
copy_scripts
before=$(results_sum solved.csv solved.md values.csv values.md)
# A longer run's page (scripts/long_solve.sh's layout, cut down) that proved
# book (2;6;4) with every first-turn class: the tables name it in the row
# the limit leaves open, and at the top.
long_page() { # FIELD OPTIONS VALUE
    printf '# A long solve\n\n- command: `paperball solve --rules book --field %s --time-limit 3600 %s`\n' "$1" "$2"
    printf -- '- exit status: 0 (0: solved)\n\n## What it reached\n\n```\n'
    printf 'value        %s for Top (the player to move)\n```\n' "$3"
}
long_page 2,6,4 --first-turns win > repo/results/long_solve_book_2_6_4.md
bash repo/scripts/solve_tables.sh --time-limit 1 --max-side 6 --misses 1 --build "$(dirname "$pb")" 2> tables.err
check "script: status" 0 $?
csv=repo/results/solved.csv
md=repo/results/solved.md
# value_of VARIANT FIELD: the value the table gives ("VARIANT",(G;W;L),status,value,...)
value_of() {
    python3 -c '
import csv, sys
for r in csv.DictReader(open(sys.argv[1])):
    if r["rules"] == sys.argv[2] and r["field"] == sys.argv[3]:
        print(r["status"], r["value"])' "$csv" "$1" "$2"
}
# The start's value by the tablebase (built backward from every game's end).
tb_value() { # OPTIONS... FIELD
    local f=${*: -1} out
    out=tb-$RANDOM.pbt
    "$pb" tb build "${@:1:$#-1}" --field "$f" --out "$out" > /dev/null 2>&1 &&
        "$pb" tb probe "$out" | sed -n 's/^value *\([a-z]*\) .*/\1/p'
}
while IFS='|' read -r variant opts; do
    for f in "2;2;2" "2;4;2" "4;4;2" "2;2;4"; do
        got=$(value_of "$variant" "($f)")
        # shellcheck disable=SC2086
        "$pb" info $opts --field "$f" > /dev/null 2>&1 || continue # no such field in the variant
        # shellcheck disable=SC2086
        check "$variant ($f): the tablebase's value" "solved $(tb_value $opts "${f//;/,}")" "$got"
    done
done << 'EOF'
book|--rules book
hockey S=1, dead end draws|--rules hockey --setback 1 --dead-end draw
hockey S=1, dead end loses|--rules hockey --setback 1 --dead-end loss
hockey S=0, dead end draws|--rules hockey --setback 0 --dead-end draw
hockey S=0, dead end loses|--rules hockey --setback 0 --dead-end loss
EOF
# Triple has no tablebase: alpha-beta, the other search.
for f in "2;4;4" "4;4;4" "2;4;6"; do
    check "triple ($f): alpha-beta's value" \
        "solved $("$pb" solve --rules triple --field "$f" --algo ab --json --quiet | python3 -c 'import json, sys; print(json.load(sys.stdin)["value"])')" \
        "$(value_of triple "($f)")"
done
# book (2;6;4) takes seconds (11M nodes with --first-turns): over 1 s,
# recorded as stopped, and with --misses 1 no book field after it.
check "book (2;6;4): stopped at the limit" "stopped unknown" "$(value_of book "(2;6;4)")"
check "book: nothing after the field that stopped" '"(2;6;4)"' \
    "$(python3 -c '
import csv, sys
print("\"%s\"" % [r["field"] for r in csv.DictReader(open(sys.argv[1])) if r["rules"] == "book"][-1])' "$csv")"
# The largest solved book fields (area 16: (2;4;4), (4;4;4)) named at the top.
contains "largest book fields named" "- book: (2;4;4) $(value_of book "(2;4;4)" | cut -d' ' -f2), (4;4;4) $(value_of book "(4;4;4)" | cut -d' ' -f2)" "$(cat "$md")"
check "a table row per CSV row" "$(($(wc -l < "$csv") - 1))" "$(grep -c '^| (' "$md")"
contains "book (2;6;4): the longer run named in its row" \
    "; solved by a longer run: win ([results/long_solve_book_2_6_4.md](long_solve_book_2_6_4.md))" \
    "$(grep '^| (2;6;4) |' "$md")"
contains "book: the longer run's field named at the top" \
    "(4;4;4) $(value_of book "(4;4;4)" | cut -d' ' -f2); beyond the limit, by a longer run: (2;6;4) win" "$(cat "$md")"
# Of two pages for one field, the one with every class counts; two that
# disagree stop the maps' script.
mkdir -p pages
long_page 2,6,4 "" win > pages/long_solve_book_2_6_4_value.md
long_page 2,6,4 --first-turns win > pages/long_solve_book_2_6_4.md
check "longer runs: the page with every class kept" "(True, 'results/long_solve_book_2_6_4.md')" \
    "$(cd repo/scripts && python3 -c 'import plots; v = plots.long_solved("../../pages")[("book", (2, 6, 4))]; print(v[1:])')"
long_page 2,6,4 "" loss > pages/long_solve_book_2_6_4_value.md
(cd repo/scripts && python3 -c 'import plots; plots.long_solved("../../pages")') 2> disagree.err
check "longer runs that disagree: status 1" 1 $?
contains "longer runs that disagree: named" "give (2;6;4) of book different values" "$(cat disagree.err)"

# --table values: the value alone, into values.md and .csv.  The values
# of the fields both tables settle agree (the solved table's are checked
# against the tablebase and alpha-beta above); each won field's best first
# turn is one the solved table finds winning; book (2;6;4) is stopped at
# 1 s with its root's numbers; the solved table is left as it was.
solved_sum=$(cat "$csv" "$md" | cksum)
bash repo/scripts/solve_tables.sh --table values --time-limit 1 --max-side 6 --misses 1 \
    --build "$(dirname "$pb")" 2> values.err
check "values: status" 0 $?
vcsv=repo/results/values.csv
check "values: the solved table untouched" "$solved_sum" "$(cat "$csv" "$md" | cksum)"
check "values: agree with the solved table where both settle a field" "ok" "$(python3 -c '
import csv, sys
solved = {(r["rules"], r["field"]): r for r in csv.DictReader(open(sys.argv[1])) if r["status"] == "solved"}
n, bad = 0, []
for r in csv.DictReader(open(sys.argv[2])):
    s = solved.get((r["rules"], r["field"]))
    if r["status"] != "solved" or not s:
        continue
    n += 1
    if r["value"] != s["value"]:
        bad.append(r["rules"] + " " + r["field"] + " value")
    if r["value"] == "win" and r["best_first_turn"] not in s["best_first_turns"].split():
        bad.append(r["rules"] + " " + r["field"] + " best " + r["best_first_turn"])
print("ok" if n >= 40 and not bad else "%d compared; %s" % (n, bad))' "$csv" "$vcsv")"
check "values: book (2;6;4) stopped, with root numbers" "stopped unknown yes" "$(python3 -c '
import csv, sys
for r in csv.DictReader(open(sys.argv[1])):
    if r["rules"] == "book" and r["field"] == "(2;6;4)":
        print(r["status"], r["value"], "yes" if int(r["root_pn"]) > 0 and int(r["root_dn"]) > 0 else "no")' "$vcsv")"
contains "values: largest book fields named" "- book: (2;4;4) win, (4;4;4) win" "$(cat repo/results/values.md)"
contains "values: book (2;6;4)'s longer run named" "; solved by a longer run: win" \
    "$(grep '^| (2;6;4) |' repo/results/values.md)"
check "values: a table row per CSV row" "$(($(wc -l < "$vcsv") - 1))" "$(grep -c '^| (' repo/results/values.md)"
check "values: a map per rule set" 6 "$(find repo/results/img -name 'value-map-*.svg' | wc -l)"
# --max-area: no field larger tried, and the bound stated.
bash repo/scripts/solve_tables.sh --table values --time-limit 1 --max-side 6 --max-area 8 --misses 1 \
    --build "$(dirname "$pb")" 2> area.err
check "values, --max-area 8: status" 0 $?
check "values, --max-area 8: the largest area tried" 8 "$(python3 -c '
import csv, sys
print(max(int(w) * int(l) for g, w, l in (r["field"].strip("()").split(";") for r in csv.DictReader(open(sys.argv[1])))))' "$vcsv")"
contains "values, --max-area 8: the bound stated" "--max-side 6 --max-area 8 --table values" "$(cat repo/results/values.md)"
# The page says how many runs it gathers and how many --keep supplied: the
# same table again with the same keep directory makes none.
n=$(($(wc -l < "$vcsv") - 1))
contains "values, --max-area 8: every run made" "- runs: $n; they ended" "$(cat repo/results/values.md)"
bash repo/scripts/solve_tables.sh --table values --time-limit 1 --max-side 6 --max-area 8 --misses 1 \
    --keep kept --build "$(dirname "$pb")" 2> keep1.err
bash repo/scripts/solve_tables.sh --table values --time-limit 1 --max-side 6 --max-area 8 --misses 1 \
    --keep kept --build "$(dirname "$pb")" 2> keep2.err
check "values, kept: status" 0 $?
contains "values, kept: every run from --keep" "- runs: $n, 0 made by this run of the script and $n kept" \
    "$(cat repo/results/values.md)"
# Carried to another machine (scripts/kept_runs.sh save, then load into an
# empty keep directory): every run kept again, with the times it ended.
ended=$(grep -o 'they ended .*' repo/results/values.md)
bash repo/scripts/kept_runs.sh save kept saved 2> save.err &&
    bash repo/scripts/kept_runs.sh load saved kept2 2> load.err
check "values, carried: saved and loaded" 0 $?
# A checkout sets every file's time to its own: the page's times must not
# come from them.
find kept2 -exec touch -d '2001-02-03 04:05' {} +
bash repo/scripts/solve_tables.sh --table values --time-limit 1 --max-side 6 --max-area 8 --misses 1 \
    --keep kept2 --build "$(dirname "$pb")" 2> keep3.err
check "values, carried: status" 0 $?
contains "values, carried: every run from the loaded runs" "- runs: $n, 0 made by this run of the script and $n kept" \
    "$(cat repo/results/values.md)"
contains "values, carried: the times the runs ended" "$ended" "$(cat repo/results/values.md)"
bash repo/scripts/solve_tables.sh --table answers --build "$(dirname "$pb")" > bad.out 2> bad.err
check "values: a bad --table, status 2" 2 $?
check "values: a bad --table, one line" 1 "$(wc -l < bad.err)"
bash repo/scripts/solve_tables.sh --max-area 0 --build "$(dirname "$pb")" > bad.out 2> bad.err
check "a bad --max-area, status 2" 2 $?
check "a bad --max-area, one line" 1 "$(wc -l < bad.err)"
# A stop (SIGTERM to the script's process group, as Slurm or
# `kill -- -PGID` sends it) while book (2;6;4) is being solved: status 3,
# one line, no page, and the field cut short is not kept (it would read as
# stopped by the time limit); run again, the table goes on from the kept
# fields and solves it.
mkdir -p stop/repo/results && cp -r repo/scripts stop/repo/
stop_cmd=(bash stop/repo/scripts/solve_tables.sh --time-limit 120 --max-side 6 --max-area 24 --misses 1 --keep stop/keep
    --build "$(dirname "$pb")")
setsid "${stop_cmd[@]}" > stop.out 2> stop.err &
pid=$!
for _ in $(seq 1 600); do grep -q 'book (2;6;4)' stop.err && break; sleep 0.1; done
sleep 1
kill -TERM -- -"$pid"
wait "$pid"
check "stopped: status 3" 3 $?
contains "stopped: says so" "stopped; the fields finished are kept in" "$(tail -1 stop.err)"
contains "stopped: names the keep directory" "stop/keep: run the same command again to go on" "$(tail -1 stop.err)"
check "stopped: no page" "no" "$([ -e stop/repo/results/solved.md ] && echo yes || echo no)"
check "stopped: no field kept as stopped by the limit" "" "$(grep -l '^3$' stop/keep/*/rc)"
check "stopped: the field cut short has no status" 1 "$(for r in stop/keep/*/; do [ -e "$r/rc" ] || echo "$r"; done | wc -l)"
kept=$(find stop/keep -name rc | wc -l)
"${stop_cmd[@]}" > stop2.out 2> stop2.err
check "run again: status 0" 0 $?
check "run again: book (2;6;4) solved" "solved" "$(csv=stop/repo/results/solved.csv value_of book "(2;6;4)" | cut -d' ' -f1)"
contains "run again: the kept fields reused" "made by this run of the script and $kept kept" \
    "$(cat stop/repo/results/solved.md)"
# Ctrl-C at a terminal (SIGINT to the whole group): the solver handles it
# and exits 3 as at its time limit; the script must not record that as the
# field's status and go on to the next field.
ctrl_c int.log "book (2;6;4)" "${stop_cmd[@]/stop\/keep/int-keep}"
check "Ctrl-C: status 3" 3 $?
check "Ctrl-C: no field kept as stopped by the limit" "" "$(grep -l '^3$' int-keep/*/rc)"
check "Ctrl-C: no field started after the one cut short" "book (2;6;4)" "$(grep '^\[' int.log | tail -1 | cut -d' ' -f2-)"
check "the repository's results untouched" "$before" "$(results_sum solved.csv solved.md values.csv values.md)"
finish
