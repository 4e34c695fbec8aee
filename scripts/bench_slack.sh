#!/usr/bin/env bash
# Measures the slack of proof-number search's 1+e rule (solve --slack E)
# and writes results/bench_slack.md: the value of many starts solved with
# each slack, the nodes of each against e = 1 (the old default), per rule
# variant, and whether every slack gives the same values.  The positions:
# the start of every field that results/solved.csv lists as solved in
# 0.3 to 40 s (there, with --first-turns; here the value alone), and two
# harder ones, book (2;6;4) from the start and book (2;6;8) after 20
# turns.  Node counts do not depend on the load, so the runs go --jobs at a time.
# Usage: scripts/bench_slack.sh [--build DIR] [--jobs N] [--slacks "E ..."] [--limit S]
#   --slacks  the slacks compared (default "0.125 0.1875 0.25 0.5 1"; 1 is
#             the reference and is always run)
#   --limit   seconds per solve (default 300); a run over it fails the script
. "$(dirname "$0")/lib.sh"
build="" jobs=2 slacks="0.125 0.1875 0.25 0.5 1" limit=300
pb_options --build=build --jobs=jobs --slacks=slacks --limit=limit -- "$@"
pb_program "$build"
case " $slacks " in *" 1 "*) ;; *) slacks="$slacks 1" ;; esac
out=$root/results/bench_slack.md
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
load0=$(cut -d' ' -f1-3 /proc/loadavg)
t0=$(date +%s)

# The positions, "label|solve options" a line.
python3 - "$root/results/solved.csv" > "$work/positions" <<'PY'
import csv, sys
for r in csv.DictReader(open(sys.argv[1])):
    if r['status'] != 'solved' or not 0.3 <= float(r['seconds']) <= 40:
        continue
    opts = r['command'].split('paperball solve ', 1)[1].split(' --threads')[0].replace("'", '')
    opts = opts.replace(' --first-turns', '')  # the value alone
    print(f"{r['rules']} {r['field']}|{opts}")
PY
pb_bench_record book-2-6-8-after-20 > "$work/r20.txt"
{
  echo "hard: book (2;6;4) start|--rules book --field 2;6;4 --memory 2G"
  echo "hard: book (2;6;8) after 20 turns|--rules book --field 2;6;8 --memory 2G --record-file $work/r20.txt"
} >> "$work/positions"

# One solve a line of $work/runs: "index|slack|label|options".
n=0
while IFS= read -r p; do
  for e in $slacks; do echo "$n|$e|$p"; done
  n=$((n + 1))
done < "$work/positions" > "$work/runs"
export pb work limit
one() {
  IFS='|' read -r i e label opts <<< "$1"
  local f=$work/run.$i.$e
  # shellcheck disable=SC2086 # $opts holds several options
  /usr/bin/time -f '%U %S' -o "$f.time" timeout "$limit" "$pb" solve $opts --slack "$e" --quiet --json \
    > "$f.json" 2>/dev/null < /dev/null || true
  python3 - "$f" "$i" "$e" "$label" <<'PY'
import json, sys
f, i, e, label = sys.argv[1:]
try:
    d = json.load(open(f + '.json'))
    u, s = open(f + '.time').read().split()[-2:]
    print(f"{i}|{e}|{label}|{d['value']}|{d['nodes']}|{float(u) + float(s):.2f}")
except Exception:
    print(f"{i}|{e}|{label}|failed||")
PY
}
export -f one
xargs -d '\n' -P "$jobs" -I{} bash -c 'one "$1"' _ {} < "$work/runs" > "$work/lines"

status=0
python3 - "$work/lines" "$slacks" > "$work/table" <<'PY' || status=$?
import collections, math, sys
lines, slacks = sys.argv[1], sys.argv[2].split()
runs = collections.defaultdict(dict)
labels = {}
bad = []
for line in open(lines):
    i, e, label, value, nodes, cpu = line.rstrip('\n').split('|')
    labels[int(i)] = label
    if value == 'failed':
        bad.append(f"{label}, slack {e}: no answer within the limit")
        continue
    runs[int(i)][e] = (value, int(nodes), float(cpu))
for i, r in runs.items():
    if len({v[0] for v in r.values()}) > 1:
        bad.append(f"{labels[i]}: the slacks give different values: {r}")
order = sorted(runs, key=lambda i: labels[i])
def group(label):
    return 'hard positions' if label.startswith('hard') else label.rsplit(' (', 1)[0]
groups = collections.defaultdict(list)
for i in order:
    if len(runs[i]) == len(slacks):
        groups[group(labels[i])].append(i)
        if not labels[i].startswith('hard'):
            groups['all fields'].append(i)
print("Per rule variant: the geometric mean over its positions of nodes with the slack")
print("over nodes with e = 1 (below 1: fewer), and the CPU seconds of all its solves.")
print()
print("| positions | count | " + " | ".join(f"e = {e}: nodes, CPU s" for e in slacks) + " |")
print("|---|---|" + "---|" * len(slacks))
for g in sorted(groups, key=lambda g: (g == 'all fields', g == 'hard positions', g)):
    ids = groups[g]
    cells = []
    for e in slacks:
        gm = math.exp(sum(math.log((runs[i][e][1] + 10) / (runs[i]['1'][1] + 10)) for i in ids) / len(ids))
        cells.append(f"{gm:.2f}x, {sum(runs[i][e][2] for i in ids):.1f}")
    print(f"| {g} | {len(ids)} | " + " | ".join(cells) + " |")
print()
print("Each position (value; nodes with each slack):")
print()
print("| position | value | " + " | ".join(f"e = {e}" for e in slacks) + " |")
print("|---|---|" + "---|" * len(slacks))
for i in order:
    r = runs[i]
    v = next(iter(r.values()))[0]
    print(f"| {labels[i].removeprefix('hard: ')} | {v} | " + " | ".join(str(r[e][1]) if e in r else '-' for e in slacks) + " |")
for b in bad:
    print(f"\nFAILED: {b}")
sys.exit(1 if bad else 0)
PY
{
  pb_head "The slack of proof-number search" "scripts/bench_slack.sh --jobs $jobs --slacks \"$slacks\" --limit $limit"
  pb_timed_run "$t0" "$load0"
  echo "- command: \`paperball solve OPTIONS --slack E --quiet --json\` (the value alone, one thread, default table)"
  echo
  echo "Proof-number search lets its best child run until that child's number"
  echo "passes (1 + e) times the second best's (the 1+e rule, docs/solver.md)."
  echo "A node is one expansion; node counts of one thread do not depend on the"
  echo "load, CPU seconds (user + system of the process) do, and the runs went"
  echo "$jobs at a time. Positions: the start of every field that results/solved.csv"
  echo "lists as solved in 0.3 to 40 s (with --first-turns there), and two harder"
  echo "ones. Every slack must give the same values (the script fails otherwise)."
  echo
  cat "$work/table"
} | pb_write "$out"
exit $status
