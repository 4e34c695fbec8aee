#!/usr/bin/env bash
# Measures how much a second core can give the solver on this machine and
# writes results/bench_threads.md.  For each position (the benchmark
# positions with the default table budget, then the two larger ones with
# --memory 2G), in turn, --reps times: the value alone (one process, one
# thread); the value on 2 threads right after it (in book and hockey a
# search and its helper on one table, docs/solver.md); two copies of the
# solve alone at once, as two processes that share nothing but the
# machine; --first-turns on 1 thread; --first-turns on 2 threads.  The two copies
# bound every scheme for 2 threads: a perfect split of one search halves
# its work, but each half then runs at the pace of a search that shares
# the caches and the memory bus with another, so no split can beat
#     ceiling = 2 x (wall alone) / (wall of a copy beside another).
# Medians of wall seconds; node counts do not depend on the load, and the
# script fails if a value or a one-thread node count differs between runs.
# Usage: scripts/bench_threads.sh [--build DIR] [--reps N] [--limit S] [--quick 1]
#   --quick 1   only the first position, book (2;4;6) (a check of the script)
. "$(dirname "$0")/lib.sh"
build="" reps=5 limit=600 quick=0
pb_options --build=build --reps=reps --limit=limit --quick=quick -- "$@"
pb_program "$build"
out=$root/results/bench_threads.md
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
load0=$(cut -d' ' -f1-3 /proc/loadavg)
t0=$(date +%s)
pb_bench_record book-2-6-8-after-20 > "$work/r20.txt"
positions=("book (2;4;6) start|--field 2,4,6"
           "book (2;6;4) start|--field 2,6,4"
           "book (2;6;8) after 20 turns|--field 2,6,8 --record-file $work/r20.txt"
           "book (2;6;4) start, --memory 2G|--field 2,6,4 --memory 2G"
           "book (2;6;8) after 20 turns, --memory 2G|--field 2,6,8 --memory 2G --record-file $work/r20.txt")
[ "$quick" = 0 ] || positions=("${positions[0]}")

# solve TAG OPTIONS...: one solve (standard input closed, so that two may run at once); writes
# $work/TAG.json and $work/TAG.time (wall s, CPU s).
solve() {
  local tag=$1
  shift
  # shellcheck disable=SC2086 # the options are several words
  /usr/bin/time -f '%e %U %S' -o "$work/$tag.time" timeout "$limit" "$pb" solve "$@" --quiet --json \
    > "$work/$tag.json" 2>/dev/null < /dev/null || true
}
# fields TAG: "value nodes wall cpu" of a finished solve
fields() {
  python3 - "$work/$1" <<'PY'
import json, sys
f = sys.argv[1]
try:
    d = json.load(open(f + '.json'))
    e, u, s = open(f + '.time').read().split()[-3:]
    print(d['value'], d['nodes'], e, '%.2f' % (float(u) + float(s)))
except Exception:
    print('none 0 0 0')
PY
}

rows=""
i=0
for p in "${positions[@]}"; do
  name=${p%%|*} opts=${p#*|}
  : > "$work/p$i"
  for r in $(seq "$reps"); do
    echo "[$(date -u +%H:%M:%S)] $name, round $r of $reps" >&2
    # shellcheck disable=SC2086
    solve alone $opts
    # shellcheck disable=SC2086
    solve team $opts --threads 2
    # shellcheck disable=SC2086
    { solve copy1 $opts & solve copy2 $opts & wait; }
    # shellcheck disable=SC2086
    solve ft1 $opts --first-turns --threads 1
    # shellcheck disable=SC2086
    solve ft2 $opts --first-turns --threads 2
    {
      echo "alone $(fields alone)"
      echo "copy $(fields copy1)"
      echo "copy $(fields copy2)"
      echo "team $(fields team)"
      echo "ft1 $(fields ft1)"
      echo "ft2 $(fields ft2)"
    } >> "$work/p$i"
  done
  rows+="$(python3 - "$name" "$work/p$i" <<'PY'
import sys, statistics
name, f = sys.argv[1:]
runs = {}
for line in open(f):
    kind, value, nodes, wall, cpu = line.split()
    runs.setdefault(kind, []).append((value, int(nodes), float(wall), float(cpu)))
values = {r[0] for rs in runs.values() for r in rs}
if len(values) != 1 or 'none' in values or 'unknown' in values:
    sys.exit(f"bench_threads: {name}: values {sorted(values)}")
for kind in ('alone', 'copy', 'ft1'):
    if len({r[1] for r in runs[kind]}) != 1:
        sys.exit(f"bench_threads: {name}: one-thread node counts differ ({kind})")
if runs['alone'][0][1] != runs['copy'][0][1]:
    sys.exit(f"bench_threads: {name}: a copy searched other nodes than the solve alone")
med = lambda kind, k: statistics.median(r[k] for r in runs[kind])
walls = lambda kind: ', '.join('%.2f' % r[2] for r in runs[kind])
a, c, f1, f2, t2 = med('alone', 2), med('copy', 2), med('ft1', 2), med('ft2', 2), med('team', 2)
# Each round's own ratio, its runs one after the other: a slow spell of the
# machine slows both sides of it, where a ratio of medians may take them
# from different spells.
ratios = lambda x, y: [p[2] / q[2] for p, q in zip(runs[x], runs[y])]
team_r = ratios('alone', 'team')
rt, rf = statistics.median(team_r), statistics.median(ratios('ft1', 'ft2'))
n = runs['alone'][0][1]
tn = med('team', 1)
print(f"| {name} | {values.pop()} | {n:,} | {walls('alone')} | {walls('copy')} | {c / a:.2f}x | {2 * a / c:.2f}x "
      f"| {tn:,.0f} ({tn / n:.2f}x), {walls('team')} | {', '.join('%.2f' % r for r in team_r)} | **{rt:.2f}x** ({a / t2:.2f}x) "
      f"| {runs['ft1'][0][1]:,}, {walls('ft1')} | {statistics.median(r[1] for r in runs['ft2']):,.0f}, {walls('ft2')} | {rf:.2f}x ({f1 / f2:.2f}x) |")
PY
)"$'\n'
  i=$((i + 1))
done

{
  pb_head "What a second core can give the solver" "scripts/bench_threads.sh"
  echo "- command: \`paperball solve OPTIONS --quiet --json\`, $reps rounds, each round the five runs in turn (the value alone, then on 2 threads, then the copies)"
  pb_timed_run "$t0" "$load0"
  echo
  echo "Per position and round: the value alone (one process, one thread); two"
  echo "copies of the same solve at once, two processes sharing nothing but the"
  echo "machine; the value on 2 threads (\`--threads 2\`: in book and hockey a search"
  echo "and its helper on one table, docs/solver.md), its nodes (both threads', median)"
  echo "against the value alone's, each round's speed-up (wall alone over wall on 2"
  echo "threads, the two runs one after the other) and their median, with the"
  echo "median wall alone over the median on 2 in brackets;"
  echo "\`--first-turns\` on 1 thread and on 2 (in book and hockey the value first"
  echo "by the team, then the classes it left open dealt to the threads; in triple"
  echo "the classes dealt). Wall seconds of every round; the slow-down is the"
  echo "median wall time of a copy over the median alone. A perfect split of one"
  echo "search over two threads halves its work but runs each half at the pace of a"
  echo "copy, so no scheme for 2 threads can beat the ceiling, 2 / slow-down (before"
  echo "any work it repeats or any cost of sharing one table). The last column is the"
  echo "solver's own speed-up of \`--first-turns\`, 1 thread over 2 (median of the rounds' ratios; of the median walls in brackets)."
  echo "With a load average near 2 before the run, other work shared the machine."
  echo
  echo "| position | value | nodes (value) | wall s alone | wall s of a copy beside another | slow-down | ceiling for 2 threads | value on 2 threads: nodes (ratio), wall s | speed-up per round | speed-up | \`--first-turns\`, 1 thread: nodes, wall s | 2 threads: nodes (median), wall s | speed-up |"
  echo "|---|---|---|---|---|---|---|---|---|---|---|---|---|"
  printf '%s' "$rows"
} | pb_write "$out"
