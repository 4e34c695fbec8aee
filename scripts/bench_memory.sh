#!/usr/bin/env bash
# Measures what a larger table budget costs or gains one thread's solve
# and writes results/bench_memory.md.  For each position, in turn, --reps
# times: the value with the default budget (64 MiB) and with each larger
# budget of --sizes, one run after the other, so that each round's ratios
# compare runs seconds apart on this shared machine.  A larger budget must
# never make a solve more than 10% slower than the default one: the table
# starts small and grows (docs/solver.md, "The table"), and beyond 64 MiB
# only once the search has rewritten it several times over.
# Usage: scripts/bench_memory.sh [--build DIR] [--reps N] [--sizes "512M 2G"] [--quick 1]
#   --quick 1   only the first position, book (2;4;6) (a check of the script)
. "$(dirname "$0")/lib.sh"
build="" reps=5 sizes="512M 2G 8G" quick=0
pb_options --build=build --reps=reps --sizes=sizes --quick=quick -- "$@"
pb_program "$build"
out=$root/results/bench_memory.md
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
load0=$(cut -d' ' -f1-3 /proc/loadavg)
t0=$(date +%s)
pb_bench_record book-2-6-8-after-20 > "$work/r20.txt"
positions=("book (2;4;6) start|--field 2,4,6"
           "book (2;6;4) start|--field 2,6,4"
           "book (2;6;8) after 20 turns|--field 2,6,8 --record-file $work/r20.txt"
           "book (2;4;6) start, alpha-beta|--field 2,4,6 --algo ab")
[ "$quick" = 0 ] || positions=("${positions[0]}")
read -r -a budgets <<< "default $sizes"

rows=""
for p in "${positions[@]}"; do
  name=${p%%|*} opts=${p#*|}
  : > "$work/runs"
  for r in $(seq "$reps"); do
    echo "[$(date -u +%H:%M:%S)] $name, round $r of $reps" >&2
    for m in "${budgets[@]}"; do
      mem=()
      [ "$m" = default ] || mem=(--memory "$m")
      # shellcheck disable=SC2086 # the options are several words
      if ! /usr/bin/time -f '%e %M' -o "$work/time" "$pb" solve $opts "${mem[@]}" --quiet --json > "$work/json" < /dev/null; then
        echo "bench_memory: $name with the $m budget failed" >&2
        exit 1
      fi
      python3 - "$work" "$m" >> "$work/runs" <<'PY'
import json, sys
w, m = sys.argv[1:]
d = json.load(open(w + '/json'))
e, kb = open(w + '/time').read().split()[-2:]
print(m, d['value'], d['nodes'], d['table']['bytes'], e, int(kb) // 1024)
PY
    done
  done
  rows+="$(python3 - "$name" "$work/runs" "${budgets[@]}" <<'PY'
import sys, statistics
name, f, *budgets = sys.argv[1:]
runs = {}
for line in open(f):
    m, value, nodes, _, wall, mib = line.split()
    runs.setdefault(m, []).append((value, int(nodes), float(wall), int(mib)))
values = {r[0] for rs in runs.values() for r in rs}
if len(values) != 1:
    sys.exit(f"bench_memory: {name}: values {sorted(values)}")
for m, rs in runs.items():
    if len({r[1] for r in rs}) != 1:
        sys.exit(f"bench_memory: {name}: node counts differ between runs with {m}")
base = runs['default']
for m in budgets:
    rs = runs[m]
    ratios = [r[2] / b[2] for r, b in zip(rs, base)]
    med = statistics.median(ratios)
    print(f"| {name} | {values.copy().pop()} | {m} | {rs[0][1]:,} ({rs[0][1] / base[0][1]:.2f}x) | {max(r[3] for r in rs)} "
          f"| {', '.join('%.2f' % r[2] for r in rs)} | {'-' if m == 'default' else ', '.join('%.2f' % x for x in ratios)} "
          f"| {'-' if m == 'default' else '**%.2fx**' % med} |")
PY
)"$'\n'
done

{
  pb_head "What a larger table costs one thread" "scripts/bench_memory.sh"
  echo "- command: \`paperball solve OPTIONS [--memory SIZE] --quiet --json\`, one thread, $reps rounds, each round every budget in turn"
  pb_timed_run "$t0" "$load0"
  echo
  echo "Per position: the value of one thread's solve (proof-number search, the"
  echo "default, or alpha-beta where the row says so) with the default table"
  echo "budget (64 MiB) and with larger ones. Either table starts at 4 MiB and"
  echo "doubles when 7/8 full, and beyond 64 MiB only once the search has stored"
  echo "16 entries per way since its last growth (docs/solver.md): a larger table"
  echo "costs every probe more, and a short search does not reuse it. Nodes (and"
  echo "their ratio to the default budget's), peak memory of the process (MiB,"
  echo "the largest of the rounds), wall seconds of every round, each round's"
  echo "time over the default budget's in the same round, and their median. The"
  echo "target: no larger budget more than 1.10x the default one's time."
  echo
  echo "| position | value | budget | nodes | peak MiB | wall s | time over the default's, per round | median |"
  echo "|---|---|---|---|---|---|---|---|"
  printf '%s' "$rows"
} | pb_write "$out"
