#!/usr/bin/env bash
# Measures the solver and writes results/bench_solve.md: the in-process
# benchmark (paperball bench --solve: configurations side by side, and
# (2;8;10) endgames many to a process), and, given an older build with
# --base, the older program and this one solving the same positions side
# by side in one run (CPU seconds, nodes, peak memory, ratios).
# Usage: scripts/bench_solve.sh [BUILD_DIR] [--base OLD_BUILD_DIR] [--quick]
#   PB_BENCH_LIMIT=S  stop each side-by-side run after S seconds (default 1200)
#   --quick   leave out the positions that take minutes
set -euo pipefail
build_arg=
base=
quick=0
while [ $# -gt 0 ]; do
  case $1 in
    --base) base=$2; shift 2;;
    --quick) quick=1; shift;;
    -*) echo "scripts/bench_solve.sh: unknown option $1" >&2; exit 2;;
    *) build_arg=$1; shift;;
  esac
done
. "$(dirname "$0")/lib.sh"
pb_program "$build_arg"
out=$root/results/bench_solve.md
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
load0=$(cut -d' ' -f1-3 /proc/loadavg)
t0=$(date +%s)
table=$("$pb" bench --solve --threads 2)

# Side by side: "name|solve options".  The older program always proves
# every first-turn class and prints the line; this one is run value first
# (its default), with --first-turns, and value first on 2 threads.
positions=("book (2;4;4) start|--field 2,4,4"
           "hockey (2;4;6) S=1 start|--rules hockey --field 2,4,6 --setback 1"
           "triple (2;6;8) start|--rules triple --field 2,6,8"
           "book (2;6;8) after 30 turns b|--field 2,6,8 --record-file $work/r30b.txt"
           "book (2;6;8) after 20 turns|--field 2,6,8 --record-file $work/r20.txt")
[ $quick -eq 1 ] || positions+=("book (2;4;6) start|--field 2,4,6" "book (2;6;4) start|--field 2,6,4 --memory 2G")
pb_bench_record book-2-6-8-after-30b > "$work/r30b.txt"
pb_bench_record book-2-6-8-after-20 > "$work/r20.txt"

# run LABEL PROGRAM OPTIONS...: one solve; prints "label|value|nodes|cpu s|MiB|wall s|bound",
# bound being (with --first-turns) the best 2-thread speed-up dealing its
# classes could give: their nodes over max(largest class, half of all)
run() {
  local label=$1 prog=$2; shift 2
  /usr/bin/time -f '%U %S %M %e' -o "$work/time" timeout "${PB_BENCH_LIMIT:-1200}" "$prog" solve "$@" --quiet --json \
    > "$work/out.json" 2>/dev/null || true
  python3 - "$label" "$work/out.json" "$work/time" <<'PY'
import json, sys
label, js, tm = sys.argv[1:]
try:
    d = json.load(open(js))
except Exception:
    d = {}
u, s, kb, wall = open(tm).read().split()[-4:]
cls = [t.get("nodes", 0) for i, t in enumerate(d.get("first_turns", [])) if t.get("class") == i]
bound = "%.2fx" % (sum(cls) / max(max(cls), sum(cls) / 2)) if cls and sum(cls) > 0 else "-"
print(f"{label}|{d.get('value', 'none')}|{d.get('nodes', 0)}|{float(u) + float(s):.2f}|{int(kb) / 1024:.0f}|{float(wall):.1f}|{bound}")
PY
}

side=""
if [ -n "$base" ]; then
  [ -x "$base/paperball" ] || { echo "scripts/bench_solve.sh: $base/paperball not built" >&2; exit 2; }
  base_commit=$(git -C "$(cd "$base/.." && pwd)" rev-parse --short HEAD 2>/dev/null || echo unknown)
  rows=""
  for p in "${positions[@]}"; do
    name=${p%%|*}; opts=${p#*|}
    echo "[$(date -u +%H:%M:%S)] side by side: $name" >&2
    # shellcheck disable=SC2086
    a=$(run old "$base/paperball" $opts)
    # shellcheck disable=SC2086
    b=$(run value "$pb" $opts)
    # shellcheck disable=SC2086
    c=$(run first-turns "$pb" $opts --first-turns)
    # shellcheck disable=SC2086
    d=$(run first-turns-2 "$pb" $opts --first-turns --threads 2)
    # shellcheck disable=SC2086
    e=$(run ab "$pb" $opts --algo ab)
    # shellcheck disable=SC2086
    g=$(run ab-2 "$pb" $opts --algo ab --threads 2)
    rows+="$name|$a|$b|$c|$d|$e|$g"$'\n'
  done
  side=$(printf '%s' "$rows" | python3 -c '
import sys
print("| position | old program: value, nodes, CPU s | pn value (default): nodes, CPU s, MiB | ratio | pn --first-turns: nodes, CPU s, wall s | ratio | pn --first-turns, 2 threads: nodes, CPU s, wall s | 2 threads: wall speed-up | dealing bound | ab value: nodes, CPU s | ab, 2 threads: CPU s, wall s |")
print("|---|---|---|---|---|---|---|---|---|---|---|")
for line in sys.stdin.read().splitlines():
    f = line.split("|")
    name, (old, new, ft, ft2, ab, ab2) = f[0], [f[1 + 7 * i:8 + 7 * i] for i in range(6)]
    ratio = lambda a, b: "%.1fx" % (float(a) / float(b)) if float(b) > 0 and old[1] != "none" else "-"
    speedup = lambda one, two: "%.2fx" % (float(one[5]) / float(two[5])) if float(two[5]) > 0 and two[1] != "none" else "-"
    vals = {r[1] for r in (old, new, ft, ft2, ab, ab2) if r[1] not in ("none", "unknown")}
    same = "" if len(vals) <= 1 else " **values differ: " + ", ".join(r[0] + " " + r[1] for r in (old, new, ft, ft2, ab, ab2)) + "**"
    print(f"| {name} | {old[1]}, {old[2]}, {old[3]} | {new[2]}, {new[3]}, {new[4]} | {ratio(old[3], new[3])} | "
          f"{ft[2]}, {ft[3]}, {ft[5]} | {ratio(old[3], ft[3])} | {ft2[2]}, {ft2[3]}, {ft2[5]} | {speedup(ft, ft2)} | {ft[6]} | "
          f"{ab[2]}, {ab[3]} | {ab2[3]}, {ab2[5]} |{same}")
')
fi
{
  pb_head "Solver speed" "${PB_BENCH_LIMIT:+PB_BENCH_LIMIT=$PB_BENCH_LIMIT }scripts/bench_solve.sh${base:+ --base OLD_BUILD}"
  echo "- command: \`paperball bench --solve --threads 2\` (table 64 MiB per run)"
  [ -z "$base" ] || echo "- side by side: \`paperball solve ... --quiet --json\` of commit $base_commit (the older program) and of this one"
  pb_timed_run "$t0" "$load0"
  echo
  echo "The machine is shared: with a load average above its 2 cores, wall-clock"
  echo "times measure the load, so compare CPU seconds and nodes. Node counts of one"
  echo "thread do not depend on the load."
  echo
  if [ -n "$base" ]; then
    echo "## Side by side with the older program"
    echo
    echo "The older program proves every first-turn class with alpha-beta and then"
    echo "builds the line; this one proves the value by proof-number search (its"
    echo "default) and stops, then builds the line from its table; with"
    echo "\`--first-turns\` it proves every class (with \`--threads 2\`, in book and"
    echo "hockey, the value first by a search and its helper, then the classes left"
    echo "open dealt to the threads; a value alone on 2 threads is that team,"
    echo "measured in bench_threads.md, docs/solver.md); \`--algo ab\` is its alpha-beta. The 2-thread"
    echo "speed-up is the wall seconds of \`--first-turns\` on 1 thread over 2; the dealing bound is"
    echo "the most that dealing every class to 2 threads could give: the 1-thread run's class nodes"
    echo "over the larger of its largest class and half of them all. CPU seconds (user +"
    echo "system), wall seconds and peak memory of the process (\`/usr/bin/time\`); each"
    echo "run stops after ${PB_BENCH_LIMIT:-1200} s (value \"none\"); ratios are the older"
    echo "program's CPU seconds over this one's, measured in the same run."
    echo
    echo "$side"
    echo
  fi
  echo "## Configurations (one process)"
  echo
  echo "Each fixed position (cli/bench_solve.c) is solved by proof-number search"
  echo "(\`pn\`) and by alpha-beta (\`ab\`): value first with 1 thread (\`value\`), with"
  echo "every first-turn class (\`first turns\`), with keys without mirror images"
  echo "(\`full keys\`), with reduced keys the other way than the method's default"
  echo "(\`pn no reduced keys\`, \`ab reduced keys\`: docs/solver.md), without the quick"
  echo "\"can the mover score this turn?\" check (\`no tactics\`), with an 8x larger"
  echo "table, proof-number search with the old slack of its 1+e rule, e = 1 instead"
  echo "of 1/4 (\`pn slack 1\`), and alpha-beta with 2 threads. What"
  echo "each part contributes is the ratio of its row to the \`value\` row. A node is"
  echo "one single step searched (an expansion, for pn). The run fails if a value"
  echo "differs between configurations. Then (2;8;10) endgames reached by seeded"
  echo "random play, each solved value first in the same process by each method, with"
  echo "its default keys and with reduced keys the other way (the time per position"
  echo "excludes generating it)."
  echo
  echo '```'
  echo "$table"
  echo '```'
} | pb_write "$out"
