# match.sh - triple match play through the command line (docs/match.md):
# --match refused outside triple, solve --match on (2;4;4) (its value +1
# comes from the brute force of tests/ref_match.c), perft --match against
# the moves listed after each first move (a goal is no end), enumerate
# --match against the finished counts of perft, a record with goals
# through show, play and the solver.
# Usage: bash match.sh /path/to/paperball   (run from a scratch directory)
set -u
. "$(dirname "$0")/lib/check.sh"
T=(--rules triple --field 2,4,4)

# --match belongs to triple: exit 2 with one line for book and hockey.
for rules in book hockey; do
  for cmd in solve moves perft show enumerate play; do
    st=$("$pb" "$cmd" --match --rules "$rules" </dev/null >out.txt 2>err.txt; echo $?)
    check "$cmd --match --rules $rules exit" 2 "$st"
    check "$cmd --match --rules $rules one line" 1 "$(wc -l < err.txt)"
    contains "$cmd --match --rules $rules says why" "triple only" "$(cat err.txt)"
  done
done

# solve --match: the goal difference, its sign as value, the first turns,
# a line to the end whose final score gives the difference.
"$pb" solve --match "${T[@]}" --json --quiet > solve.json
check "solve --match exit" 0 $?
gd=$(python3 -c 'import json,sys; print(json.load(open("solve.json"))["goal_difference"])')
check "(2;4;4) match value (brute force: +1)" 1 "$gd"
check "value is the sign" win "$(python3 -c 'import json; print(json.load(open("solve.json"))["value"])')"
python3 - <<'PY' > checks.txt
import json
r = json.load(open("solve.json"))
best = max(t["goal_difference"] for t in r["first_turns"])
print("best_turn_max", best == r["goal_difference"])
last = r["line"][-1]["score"]
print("line_final", last["top"] - last["bottom"] == r["goal_difference"])
print("line_goals", r["line_goals"] == sum(1 for t in r["line"] if t["goal"]))
print("signs", all(t["value"] == ("win" if t["goal_difference"] > 0 else "loss" if t["goal_difference"] < 0 else "draw")
                   for t in r["first_turns"]))
PY
for k in best_turn_max line_final line_goals signs; do
  check "solve --match $k" True "$(awk -v k=$k '$1 == k {print $2}' checks.txt)"
done
# The same values with 2 threads and a tiny table.
"$pb" solve --match "${T[@]}" --json --quiet --threads 2 --hash 1K > solve2.json
check "solve --match 2 threads, tiny table" "$(python3 -c 'import json; r=json.load(open("solve.json")); print([t["goal_difference"] for t in r["first_turns"]])')" \
  "$(python3 -c 'import json; r=json.load(open("solve2.json")); print([t["goal_difference"] for t in r["first_turns"]])')"

# perft --match: depth 1 = the first moves; depth 2 = the sum of the
# moves --match after each, goals included (play goes on from the centre).
"$pb" perft --match "${T[@]}" --depth 2 --json > perft.json
p1=$(grep -oE '"depth":1,"sequences":[0-9]+' perft.json | grep -oE '[0-9]+$')
p2=$(grep -oE '"depth":2,"sequences":[0-9]+' perft.json | grep -oE '[0-9]+$')
"$pb" moves --match "${T[@]}" > moves.txt
check "perft --match depth 1 = moves" "$(tail -n 1 moves.txt | awk '{print $1}')" "$p1"
sum=0
goals=0
for r in $(awk '/^[a-e][0-9]+-/ {print $1}' moves.txt); do
  n=$("$pb" moves --match "${T[@]}" --record "$r" | tail -n 1 | awk '{print $1}')
  sum=$((sum + ${n:-0}))
done
goals=$(grep -c 'goal' moves.txt)
[ "$goals" -gt 0 ] || fail "moves --match: no goal among the first moves of (2;4;4)"
check "perft --match depth 2 = sum of moves after each first move" "$sum" "$p2"

# enumerate --match: every finished match by final score; the total is the
# sum of perft's finished column to the end.
"$pb" enumerate --match "${T[@]}" --json > enum.json
"$pb" perft --match "${T[@]}" --depth 30 --json > perft30.json
check "enumerate --match total = perft finished" \
  "$(python3 -c 'import json; print(sum(d["finished"] for d in json.load(open("perft30.json"))["depths"]))')" \
  "$(python3 -c 'import json; print(json.load(open("enum.json"))["total"])')"

# A record with two goals: show, play and a wrong score mark.
R='1. c4-d4-c5-c6 2. c6-d7 [0:1] 3. c4-b3-c2-b1 [1:1] 4. *c4-c3-c2-c1 [2:1] X'
out=$("$pb" show --match "${T[@]}" --no-diagram --record "$R")
contains "show --match result" "match over, Top 2 : 1 Bottom: Top wins by 1" "$out"
"$pb" show --match "${T[@]}" --no-diagram --record "$R" --svg match.svg >/dev/null 2>&1
contains "show --match SVG names the score" "Top 2 : 1 Bottom" "$(cat match.svg)"
check "a match record is no single game" 2 "$(status "$pb" show "${T[@]}" --record "$R")"
check "wrong score mark" 2 "$(status "$pb" show --match "${T[@]}" --record "${R/\[1:1\]/[0:2]}")"
out=$(printf '%s\n' c4-d4-c5-c6 c6-d7 c4-b3-c2-b1 '*c4-c3-c2-c1' | "$pb" play --match "${T[@]}")
contains "play --match: the record" "record: $R" "$out"
contains "play --match: the result" "game over: match over, Top 2 : 1 Bottom" "$out"
# play's moves in a match: the listing of moves --match, line for line (a
# goal scores, it does not win); distinct refused with a reason.
printf 'moves\ndistinct\nquit\n' | "$pb" play --match "${T[@]}" > play_moves.txt
check "play --match moves = moves --match" "$(grep -E '^[a-e][0-9]+-' moves.txt)" \
  "$(grep -E '^  [a-e][0-9]+-' play_moves.txt | sed 's/^  //')"
check "play --match moves: the count" "$(tail -n 1 moves.txt | awk '{print $1}') legal turns" \
  "$(grep 'legal turns' play_moves.txt)"
contains "play --match distinct refused" "distinct does not apply to a match" "$(cat play_moves.txt)"
case $(printf 'help\nquit\n' | "$pb" play --match "${T[@]}") in
  *"  distinct "*) fail "play --match help offers distinct" ;;
  *) echo "ok   play --match help offers no distinct" ;;
esac
# Against the solver: Top resigns nothing, the solver plays Bottom.
out=$(printf '%s\n' go go go go go go go go go go | "$pb" play --match --vs-solver "${T[@]}")
contains "play --match --vs-solver reaches the end" "game over: match over" "$out"
finish
