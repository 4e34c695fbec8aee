#!/usr/bin/env bash
# CLI tests of the game model commands: info, moves, perft, errors.
set -u
. "$(dirname "$0")/lib/check.sh"

# info
j=$("$pb" info --field '(2;6;8)' --json)
contains "info 2;6;8 nodes" '"nodes":69,"segments":192,"empty":36,"odd":32' "$j"
j=$("$pb" info --field 2,8,10 --json)
contains "info 2;8;10" '"nodes":105,"segments":316' "$j"
j=$("$pb" info --rules hockey --json)
contains "info hockey default" '"setback":1,"dead_end":"draw","nodes":99,"segments":302' "$j"
t=$("$pb" info --field 2\;4\;6)
contains "info text formula" "book formula 2(n1-1)+(n2-1)(n3-1)-1 = 16" "$t"

# moves
m=$("$pb" moves)
check "moves from the centre" "8 turns" "$(echo "$m" | tail -1)"
# JSON output ends with the program's version and commit; the values
# compared here are the game's, so those two keys are cut off first.
nover() { sed 's/,"version":"[^"]*","commit":"[^"]*"//'; }
m=$("$pb" moves --field 2\;2\;2 --json | nover)
contains "moves (2;2;2) json count" '"count":14}' "$m"
contains "moves (2;2;2) goal" '"outcome":"goal"' "$m"
m=$("$pb" moves --record 'd6-e7 e7-e6')
contains "moves after two turns: bounce off the centre" "e6-d6-c5" "$m"

# moves --distinct against the whole route list, grouped here on its own:
# two routes from one position reach the same position exactly when they
# draw the same set of segments and end on the same node (the segments are
# the position's, the ball its last node, and whether the last node was
# empty before, a stop, follows from the set).  Book (2;4;4) after four
# turns (found by random play): 460 routes, of which some end alike.
if command -v python3 > /dev/null; then
  while IFS='|' read -r rest rec; do
    # shellcheck disable=SC2086
    "$pb" moves $rest --record "$rec" --json > all.json < /dev/null
    # shellcheck disable=SC2086
    "$pb" moves $rest --record "$rec" --json --distinct > distinct.json < /dev/null
    r=$(python3 - all.json distinct.json << 'PY'
import json, sys
every = json.load(open(sys.argv[1]))["moves"]
d = json.load(open(sys.argv[2]))
def key(route):
    nodes = route.lstrip("*").split("-")
    return frozenset(frozenset(p) for p in zip(nodes, nodes[1:])), nodes[-1]
groups, outcome = {}, {}
for m in every:
    k = key(m["route"])
    groups[k] = groups.get(k, 0) + 1
    outcome[m["route"]] = m["outcome"]
seen = set()
for m in d["moves"]:
    k = key(m["route"])
    assert m["route"] in outcome, ("not a legal route", m["route"])
    assert m["outcome"] == outcome[m["route"]], m
    assert k not in seen, ("listed twice", m["route"])
    seen.add(k)
    assert m["routes"] == groups[k], (m, groups[k])
assert len(seen) == len(groups) == d["count"], (len(seen), len(groups), d["count"])
assert d["routes"] == len(every) and d["distinct"] is True
print("ok %d %d" % (len(every), len(groups)))
PY
)
    contains "moves --distinct: one route per position after the turn ($rest)" "ok" "$r"
  done << 'EOF2'
--field 2,4,4|c4-b4 b4-a3-b2-b3 b3-b4-c3 c3-b2-c2
--rules hockey --dead-end loss --field 2,4,4|c3-d3 d3-c2
--rules triple --field 2,4,6|c5-d4-d3-c2
EOF2
  check "moves --distinct: book (2;4;4) after four turns, routes and positions" "ok 460 192" \
      "$("$pb" moves --field 2,4,4 --record 'c4-b4 b4-a3-b2-b3 b3-b4-c3 c3-b2-c2' --json > all.json &&
         "$pb" moves --field 2,4,4 --record 'c4-b4 b4-a3-b2-b3 b3-b4-c3 c3-b2-c2' --json --distinct |
         python3 -c 'import json,sys; a=json.load(open("all.json")); d=json.load(sys.stdin); print("ok", a["count"], d["count"])')"
else
  echo "skip moves --distinct against the route list: no python3"
fi
t=$("$pb" moves --field 2,4,4 --record 'c4-b4 b4-a3-b2-b3 b3-b4-c3 c3-b2-c2' --distinct | tail -1)
check "moves --distinct: the summary line" "192 distinct turns (positions after the turn) of 460 routes" "$t"
b=$(printf 'c4-b4\n' | "$pb" moves --field 2,4,4 --batch - --distinct)
contains "moves --distinct --batch: a count after each outcome" "line 1: Bottom to move: " "$b"
check "moves --distinct --batch: counts of 1 where no two routes meet" yes \
    "$(echo "$b" | grep -Eq 'b4-[a-e][0-9] stop 1(,|$)' && echo yes || echo no)"
e=$("$pb" moves --rules triple --match --distinct 2>&1); st=$?
check "moves --distinct --match: refused" 2 "$st"

# perft: JSON shape and values
p=$("$pb" perft --positions --depth 3 --json | nover)
check "perft json" '{"depths":[{"depth":1,"sequences":8,"positions":8,"finished":0},{"depth":2,"sequences":56,"positions":56,"finished":0},{"depth":3,"sequences":570,"positions":498,"finished":0}]}' "$p"
p=$("$pb" perft --field 2\;2\;2 --depth 1 --json | nover)
check "perft (2;2;2) 14" '{"depths":[{"depth":1,"sequences":14,"finished":4}]}' "$p"
p=$("$pb" perft --depth 0 --json | nover)
check "perft depth 0" '{"depths":[{"depth":0,"sequences":1,"finished":0}]}' "$p"
# depth-first and breadth-first agree; 1 and 2 threads agree
a=$("$pb" perft --field 2,4,4 --depth 5 --threads 1)
b=$("$pb" perft --field 2,4,4 --depth 5 --threads 2)
check "perft threads" "$a" "$b"
c=$("$pb" perft --field 2,4,4 --depth 5 --positions | awk '{ print $1, $2, $4 }' | tail -n +2)
check "perft depth-first = breadth-first" "$(awk '{ print $1, $2, $3 }' <<<"$a" | tail -n +2)" "$c"
# --divide: the first turns' counts add up to perft(d)
d=$("$pb" perft --field 2,4,4 --depth 4 --divide --json)
s=$(grep -oE '"sequences":[0-9]+' <<<"$d" | head -n -1 | grep -oE '[0-9]+' | paste -sd+ | bc)
t=$(awk '$1 == 4 { print $2 }' <<<"$b")
check "divide sum" "$t" "$s"
check "divide total" "$t" "$(grep -oE '"turns":[0-9]+,"sequences":[0-9]+' <<<"$d" | grep -oE '[0-9]+$')"
# perft from a record = sum over the turns of perft from each successor
a=$("$pb" perft --record 'd6-e7' --depth 2 --json | sed 's/.*"depth":2,"sequences":\([0-9]*\).*/\1/')
s=0
for r in $("$pb" moves --record 'd6-e7' | awk 'NR>1 && $2=="stop" {print $1}'); do
  n=$("$pb" perft --record "d6-e7 $r" --depth 1 --json | sed 's/.*"sequences":\([0-9]*\).*/\1/')
  s=$((s+n))
done
check "perft(2) = sum of perft(1) of successors" "$a" "$s"

# bad input: one line on stderr, exit 2
for args in "--field 2;5;8" "--field 8;6;8" "--field 2;6" "--rules chess" "--bogus" "--depth x" \
            "--record d6-e7-f8" "--record d6-e7 --field 2;6;8 --setback 1" "--rules hockey --setback 5 --field 2;8;10" \
            "--record-file /nonexistent/file"; do
  # shellcheck disable=SC2086
  err=$("$pb" info $args 2>&1 >/dev/null; echo "status=$?")
  [ "$args" = "--record d6-e7-f8" ] && err=$("$pb" moves $args 2>&1 >/dev/null; echo "status=$?")
  [ "$args" = "--record-file /nonexistent/file" ] && err=$("$pb" moves $args 2>&1 >/dev/null; echo "status=$?")
  lines=$(printf '%s\n' "$err" | wc -l)
  contains "bad input '$args' exits 2" "status=2" "$err"
  check "bad input '$args' one line" "2" "$lines"
  contains "bad input '$args' names itself" "paperball: " "$err"
done
e=$("$pb" info --field '2;5;8' 2>&1)
check "odd size message" "paperball: bad field (2;5;8): goal, width and length must all be even" "$e"
e=$("$pb" info --field '8;6;8' 2>&1)
check "wide goal message" "paperball: bad field (8;6;8): the goal (8) is wider than the field (6)" "$e"
e=$("$pb" moves --record 'd6-e7 e7-d6' 2>&1)
check "illegal move message" "paperball: move 2 (e7-d6): segment e7-d6 is already drawn" "$e"
check "unknown command" 2 "$(status "$pb" frobnicate)"
check "no command" 2 "$(status "$pb")"
check "help" 0 "$(status "$pb" --help)"
for c in info show moves play perft bench; do
  check "$c --help" 0 "$(status "$pb" $c --help)"
done

finish
