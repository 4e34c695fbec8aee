#!/usr/bin/env bash
# scripts/first_turns_solve.sh - each first-turn class of a field's start
# solved on its own, as a separate process with a time limit, so that a
# field too large to solve whole shows which classes fall and how far the
# others got: the class's value for the first player if proven, else the
# proof and disproof numbers of its search (the question is the player to
# move after the first turn's), nodes, seconds and peak memory.
#
#   scripts/first_turns_solve.sh [--rules R] [--field W,L,G] [--seconds S]
#                                [--memory SIZE] [--jobs J] [--extra "OPTIONS"]
#                                [--build DIR]
#
# S seconds and SIZE of memory for each class; J classes at a time (one
# thread each).  Writes results/first_turns_RULES_W_L_G.md.  A class is
# named by one of its routes; the first turns of one class lead to one
# position or to its mirror image (docs/solver.md).  Ctrl-C or SIGTERM
# stops every class being solved and writes no page (status 3): a class a
# stop cut short would read as stopped by its time limit.
. "$(dirname "$0")/lib.sh"
rules=book field=2,6,6 seconds=600 memory=8G jobs=1 extra="" build=""
pb_options --rules=rules --field=field --seconds=seconds --memory=memory --jobs=jobs --extra=extra --build=build -- "$@"
pb_program "$build"
name=first_turns_${rules}_${field//,/_}
out=$root/results/$name.md
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
pb_stop_trap "$work/stopped" # lib.sh
t0=$(date +%s)
load0=$(cut -d' ' -f1-3 /proc/loadavg)

[[ $seconds =~ ^[0-9]+([.][0-9]+)?$ ]] && awk -v s="$seconds" 'BEGIN { exit !(s > 0) }' || {
  echo "$(basename "$0"): --seconds $seconds: expected a positive number" >&2
  exit 2
}
[[ $jobs =~ ^[1-9][0-9]*$ ]] || {
  echo "$(basename "$0"): --jobs $jobs: expected a positive whole number" >&2
  exit 2
}

# The classes: listed by a --first-turns solve stopped at once (status 3;
# 2: the program's one line on bad options, and the same status here).
st=0
# shellcheck disable=SC2086 # $extra holds several options
"$pb" solve --rules "$rules" --field "$field" $extra --memory "$memory" --first-turns --time-limit 0.001 \
  --json --quiet > "$work/classes.json" 2> "$work/classes.err" || st=$?
if [ "$st" -ne 0 ] && [ "$st" -ne 3 ]; then
  cat "$work/classes.err" >&2
  [ "$st" -eq 2 ] && exit 2
  exit 1
fi
python3 - "$work/classes.json" > "$work/classes.txt" <<'EOF' || exit 1
import json, sys
d = json.load(open(sys.argv[1]))
for t in d["first_turns"]:
    print(t["route"], t["routes"], t["value"] if t["ends_game"] else "-")
EOF
echo "$(basename "$0"): $(wc -l < "$work/classes.txt") classes, $seconds s each, $jobs at a time" >&2

# One class: its solve, with the wall time and peak memory of the process.
solve_class() {
  local route=$1 i=$2 st=0
  # shellcheck disable=SC2086
  /usr/bin/time -f '%e %M' -o "$work/$i.time" "$pb" solve --rules "$rules" --field "$field" $extra \
    --record "$route" --time-limit "$seconds" --memory "$memory" --threads 1 --json --quiet \
    > "$work/$i.json" 2> "$work/$i.err" || st=$?
  pb_stopped && return 0 # cut short by a stop: no status
  echo "$st" > "$work/$i.status"
  echo "$(basename "$0"): class $route: exit $(cat "$work/$i.status")" >&2
}
i=0
while read -r route _ ends; do
  i=$((i + 1))
  [ "$ends" = - ] || continue # a first turn that ends the game is no question
  while [ "$(jobs -rp | wc -l)" -ge "$jobs" ] && ! pb_stopped; do wait -n || true; done
  pb_stopped && break
  solve_class "$route" "$i" &
done < "$work/classes.txt"
pb_wait_all
if pb_stopped; then
  echo "$(basename "$0"): stopped; no page written" >&2
  exit 3
fi
# A class's solve that failed (status other than 0, solved, or 3, stopped
# by its time limit): its message, and no table.
for f in "$work"/*.status; do
  [ -e "$f" ] || continue
  st=$(cat "$f")
  if [ "$st" -ne 0 ] && [ "$st" -ne 3 ]; then
    tail -1 "${f%.status}.err" >&2
    exit 1
  fi
done

summary=$(python3 - "$work" <<'EOF'
import json, os, sys
work = sys.argv[1]
rows, values = [], []
first = json.load(open(os.path.join(work, "classes.json")))["to_move"]
for i, line in enumerate(open(os.path.join(work, "classes.txt")), 1):
    route, nroutes, ends = line.split()
    base = os.path.join(work, str(i))
    if ends != "-":
        rows.append(f"| {route} | {nroutes} | {ends}, the game ends | - | - | - | - | - |")
        values.append(ends)
        continue
    d = json.load(open(base + ".json"))
    wall, peak = open(base + ".time").read().split()[-2:]
    # The solve's value is for the player to move after the first turn;
    # the class's, for the first player: the other one's, unless the
    # first turn left the move with the same player.
    v = d["value"]
    mover = d["to_move"]
    flip = {"win": "loss", "loss": "win", "draw": "draw", "unknown": "unknown"}
    cv = flip[v] if mover != first else v
    values.append(cv)
    question = f"can {mover} win?" if v == "unknown" else "-"
    numbers = f"{d.get('root_pn', '-')} / {d.get('root_dn', '-')}" if v == "unknown" else "-"
    rows.append(f"| {route} | {nroutes} | {cv} | {question} | {numbers} | {d['nodes']:,} | {float(wall):.1f} | {int(peak) // 1024:,} |")
known = [v for v in values if v != "unknown"]
if "win" in known:
    verdict = "the start is a win for the first player: a class is a win"
elif "unknown" in values:
    draw = ", a draw at least: a class is a draw" if "draw" in known else ""
    verdict = f"the start's value stays unknown: {len(known)} of {len(values)} classes proven, none a win{draw}"
elif "draw" in values:
    verdict = "the start is a draw: no class is a win, a class is a draw"
else:
    verdict = "the start is a loss for the first player: every class is a loss"
print(verdict)
for r in rows:
    print(r)
EOF
) || exit 1

{
  pb_head "The first-turn classes of $rules (${field//,/;}), each solved on its own" \
    "scripts/first_turns_solve.sh --rules $rules --field $field --seconds $seconds --memory $memory --jobs $jobs${extra:+ --extra \"$extra\"}"
  echo "- command, for each class: \`paperball solve --rules $rules --field $field${extra:+ $extra} --record ROUTE --time-limit $seconds --memory $memory --threads 1 --json\`"
  pb_timed_run "$t0" "$load0"
  echo "- $jobs class(es) at a time, each one process on one thread"
  echo
  echo "**What it shows: $(head -1 <<<"$summary").**"
  echo
  echo "A class is named by one of its routes (the routes of a class lead to one"
  echo "position or to its mirror image). Its value is the first player's; a class"
  echo "not proven within the time gives the proof and disproof numbers of its"
  echo "search at the end (proof-number search, its question the player's to move"
  echo "after the first turn), which only say how far the search got. Wall"
  echo "seconds and peak memory (MiB) of the process."
  echo
  echo "| class | routes | value for the first player | question | proof / disproof number | nodes | wall s | peak MiB |"
  echo "|---|---|---|---|---|---|---|---|"
  tail -n +2 <<<"$summary"
} | pb_write "$out"
