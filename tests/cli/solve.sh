#!/usr/bin/env bash
# CLI tests of `paperball solve` and `play --vs-solver`: consistency of the
# values (a position's value against its first turns solved one by one,
# threads, table sizes), output shapes, exit statuses, stop and Ctrl-C.
set -u
. "$(dirname "$0")/lib/check.sh"
field() { python3 -c "import json,sys; d=json.load(sys.stdin); print($1)"; }

# The value of a position is the best of its first turns, each solved as a
# position of its own (value of the reply negated).
for args in "--field 2,2,4" "--rules hockey --field 2,4,6 --setback 0" "--rules hockey --field 2,4,6 --setback 0 --dead-end loss" "--rules triple --field 2,4,4"; do
  j=$("$pb" solve $args --quiet --json --first-turns)
  v=$(echo "$j" | field "d['value']")
  best=none
  for r in $(echo "$j" | field "' '.join(t['route'] for t in d['first_turns'] if not t['ends_game'])"); do
    w=$("$pb" solve $args --record "$r" --quiet --json | field "d['value']")
    t=$(echo "$j" | field "[t['value'] for t in d['first_turns'] if t['route']=='$r'][0]")
    neg=$(case $w in win) echo loss;; loss) echo win;; *) echo draw;; esac)
    check "solve $args: first turn $r" "$t" "$neg"
    case "$best:$neg" in none:*|loss:draw|loss:win|draw:win) best=$neg;; esac
  done
  for t in $(echo "$j" | field "' '.join(t['value'] for t in d['first_turns'] if t['ends_game'])"); do
    case "$best:$t" in none:*|loss:draw|loss:win|draw:win) best=$t;; esac
  done
  check "solve $args: value = best first turn" "$v" "$best"
done

# Threads and table size do not change a value.
a=$("$pb" solve --field 2,4,4 --quiet --json --first-turns | field "d['value'], [t['value'] for t in d['first_turns']]")
b=$("$pb" solve --field 2,4,4 --quiet --json --first-turns --threads 2 | field "d['value'], [t['value'] for t in d['first_turns']]")
c=$("$pb" solve --field 2,4,4 --quiet --json --first-turns --threads 2 --hash 1K | field "d['value'], [t['value'] for t in d['first_turns']]")
check "threads 1 = 2" "$a" "$b"
check "table 64M = 1K" "$a" "$c"
r=$("$pb" solve --field 2,4,4 --quiet --json --hash 1K | field "d['table']['replaced'] > 0")
check "a 1K table replaces" "True" "$r"

# The table reported as it is, not as its budget: a table starts small
# (4 MiB; a team's 64 MiB) and grows only as the search fills it, so a
# solve of a few hundred nodes with a 2 GiB budget ends on a table of at
# most 64 MiB, with fewer ways filled than it has.
for opts in "" "--threads 2" "--algo ab"; do
  # shellcheck disable=SC2086 # the options are several words
  r=$("$pb" solve --field 2,4,4 --quiet --json --memory 2G $opts |
    field "d['table']['bytes'] >= 2000 << 20, 0 < d['table']['in_use_bytes'] <= 64 << 20, 0 < d['table']['used'] <= d['table']['in_use_slots'] < d['table']['slots']")
  check "table in use, budget 2G ${opts:-pn}" "True True True" "$r"
done
t=$("$pb" solve --field 2,4,4 --quiet --memory 2G)
contains "text table in use" "MiB of a 2048.0 MiB budget" "$t"

# Text output, best turn and line; the line ends the game.
t=$("$pb" solve --field 2,4,4 --quiet)
contains "text value" "value        " "$t"
contains "text best turn" "best turn    " "$t"
contains "text line" "line         " "$t"
contains "text table" "table        " "$t"
j=$("$pb" solve --field 2,4,4 --quiet --json)
pv=$(echo "$j" | field "' '.join(d['pv'])")
o=$("$pb" moves --field 2,4,4 --record "$pv" 2>&1); st=$?
check "the line is legal" 0 "$st"
contains "the line is a whole game" "the game is over" "$o"
g=$("$pb" solve --field 2,4,4 --record "$pv" --quiet)
contains "the line ends the game" "the game is over" "$g"

# A deep endgame of the international field: answered at once (well
# within a second even on a loaded machine; typically milliseconds).
endgame='e7-d8 d8-d7 d7-e6 e6-e7-d6 d6-d7-e7-f8 f8-e9 e9-d10 d10-e10 e10-f9 f9-f8-e8 e8-f9-e9-e8-d8-e9-d9 d9-e10-e9-f10 f10-e10-f11 f11-g12-g11 g11-f10-f11-g11-f12-f11-e11 e11-d12-c11 c11-d10-d9-e8-d7-c7 c7-d8-c8 c8-c7-c6 c6-d6-e6-f6 f6-e5 e5-e6-d5 d5-e5-f5 f5-f6-e7-e8-f7 f7-f6-g6 g6-f5-e6-f7-f8-g8 g8-f7-g6-g7 g7-g8-f9-f10-e11-f12-e12 e12-e11-d11 d11-e10-e11-d10-d11-e12-d12-d11-c12-c11-b12-a11-b10 b10-b9 b9-a10-b10-a9-b9-c8-d7-c6-d5-d6-e5-e4 e4-f5-g4 g4-g3 g3-f4 f4-e4-d3 d3-c2-b3 b3-b2-a3-b3-a4-b4 b4-c3 c3-d2-d3-c4 c4-b3-b4-c4-d5-e4-f3 f3-f2-g3-g2-f3-g4-f4-f3-g3-h4 h4-i3-h2-h3 h3-i4-h4-i5-h5 h5-g4-h3-h4-h5-g5 g5-f5-f4-g5-g4-h4-g5-g6-h5-h6 h6-i7-h7 h7-g7-f6-g5-h6-h7-i6-h6-g7-f8-g9 g9-g10 g10-h9'
j=$("$pb" solve --field 2,8,10 --record "$endgame" --quiet --json --time-limit 5); st=$?
check "(2;8;10) endgame solved" 0 "$st"
r=$(echo "$j" | field "d['complete'] and d['seconds'] < 5")
check "(2;8;10) endgame complete" "True" "$r"

# SVG
"$pb" solve --field 2,4,4 --quiet --svg pv.svg >/dev/null
check "svg written" "1" "$(grep -c '<svg' pv.svg | head -1 | sed 's/^[1-9][0-9]*$/1/')"

# Exit statuses and errors.
check "bad --hash" 2 "$(status "$pb" solve --hash 12Q)"
check "bad --time-limit" 2 "$(status "$pb" solve --time-limit -3)"
check "bad record" 2 "$(status "$pb" solve --record 'd6-z9')"
check "bad field" 2 "$(status "$pb" solve --field 3,5,7)"
check "help" 0 "$(status "$pb" solve --help)"
e=$("$pb" solve --hash 12Q 2>&1)
contains "one-line error" "paperball: bad size '12Q' for --hash" "$e"

# A time limit stops a big search: exit 3, and what is proven is printed.
out=$("$pb" solve --field 2,8,10 --time-limit 0.5 --quiet 2>err.txt); st=$?
check "time limit exit" 3 "$st"
contains "time limit report" "value        unknown" "$out"
contains "time limit message" "stopped by the time limit" "$(cat err.txt)"

# Ctrl-C: the same, at once.
"$pb" solve --field 2,8,10 --quiet >int.txt 2>interr.txt &
pid=$!
sleep 1
kill -INT $pid
wait $pid; st=$?
check "Ctrl-C exit" 3 "$st"
contains "Ctrl-C report" "value        unknown" "$(cat int.txt)"
contains "Ctrl-C message" "stopped by Ctrl-C" "$(cat interr.txt)"

# Progress lines on stderr for a longer run (and none with --quiet).
"$pb" solve --field 2,8,10 --time-limit 3.5 >/dev/null 2>prog.txt
contains "progress line" "nodes/s, table" "$(cat prog.txt)"
# The table's size in use beside its fill, as a whole number of MiB.
check "progress line: the table's size" yes \
    "$(grep -Eq '% full, [0-9]+ MiB, proof-number search' prog.txt && echo yes || echo no)"

# Play against the solver with piped input.
p=$(printf 'value\nhint\nnonsense\nquit\n' | "$pb" play --vs-solver --field 2,4,4); st=$?
check "play exit" 0 "$st"
contains "play value" "value: " "$p"
contains "play hint" "hint (" "$p"
contains "play bad input" "refused:" "$p"
# The person follows the hints to the end and must get the value promised.
v=$("$pb" solve --field 2,4,4 --quiet --json | field "d['value']")
log=$(for i in $(seq 1 30); do echo go; done | "$pb" play --vs-solver --field 2,4,4)
contains "play to the end" "game over" "$log"
won=$(echo "$log" | grep -cE "Top wins|Bottom loses")
if [ "$v" = win ]; then check "perfect play wins" 1 "$won"; fi
if [ "$v" = loss ]; then check "perfect play loses" 0 "$won"; fi

# Progress lines of proof-number search name what the question is for: a
# first-turn class by its route and the classes done, on one thread; the
# value, proven first, on two.  (Book (2;6;4)'s classes take over 2 s.)
"$pb" solve --field 2,6,4 --first-turns --time-limit 5 > /dev/null 2> lab1.txt
check "progress names a class" yes \
  "$(grep -Eq 'proof-number search on d4-[a-e][0-9] \(classes [0-4]/5 done\): can (Top|Bottom) win\? root pn' lab1.txt && echo yes || echo no)"
"$pb" solve --field 2,6,6 --threads 2 --time-limit 5 > /dev/null 2> lab2.txt
check "progress names the value" yes \
  "$(grep -q 'proof-number search on the value: can Top win? root pn' lab2.txt && echo yes || echo no)"

# A picture that could never be written (its directory missing): said
# before the search, one line, status 5, nothing searched; on a field no
# solve finishes within the limit, a late refusal would follow a report.
for opt in --svg --html; do
  out=$("$pb" solve --field 2,6,6 --time-limit 3 $opt no-such-dir/x 2> err.txt); st=$?
  check "$opt unwritable: status 5" 5 $st
  check "$opt unwritable: one line" "paperball: cannot write no-such-dir/x: No such file or directory" "$(cat err.txt)"
  check "$opt unwritable: nothing searched" "" "$out"
done

finish
