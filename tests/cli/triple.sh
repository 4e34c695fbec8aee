# triple.sh - the triple rule set through the command line:
# info, moves (the 306 first moves of (2;6;8)), perft against the sum of
# `moves` over the first moves, also on fields wider than long.
# Usage: bash triple.sh /path/to/paperball   (run from a scratch directory)
set -u
. "$(dirname "$0")/lib/check.sh"
PB=$pb

# info
out=$("$PB" info --rules triple) || fail "info --rules triple exited $?"
echo "$out" | grep -q 'triple (2;6;8)' || fail "info does not name the field: $out"

# moves: one line per route, then the count
"$PB" moves --rules triple > moves.txt || fail "moves --rules triple exited $?"
routes=$(grep -cE '^[a-g][0-9]+(-[a-g][0-9]+){3} +stop$' moves.txt)
[ "$routes" = 306 ] || fail "moves --rules triple: $routes four-node routes, expected 306"
[ "$(tail -n 1 moves.txt)" = "306 turns" ] || fail "moves --rules triple: last line '$(tail -n 1 moves.txt)'"
distinct=$(grep -E '^[a-g][0-9]+-' moves.txt | awk '{print $1}' | sort -u | wc -l)
[ "$distinct" = 306 ] || fail "moves --rules triple: $distinct distinct routes"
grep -vE '^(Top to move from the ball|[a-g][0-9]+(-[a-g][0-9]+){3} +stop|306 turns)$' moves.txt > odd.txt
[ -s odd.txt ] && fail "moves --rules triple: unexpected lines: $(head -n 3 odd.txt)"

# perft: depth 1 = the number of moves; depth 2 = the sum, over the first
# moves, of the moves listed after each (a second path through the code).
"$PB" perft --rules triple --depth 2 --json > perft.json || fail "perft --rules triple exited $?"
p1=$(grep -oE '"depth":1,"sequences":[0-9]+' perft.json | grep -oE '[0-9]+$')
p2=$(grep -oE '"depth":2,"sequences":[0-9]+' perft.json | grep -oE '[0-9]+$')
[ "$p1" = "$routes" ] || fail "perft depth 1 is '$p1', moves lists $routes"
sum=0
for r in $(awk '/^[a-g][0-9]+-/ {print $1}' moves.txt); do
    n=$("$PB" moves --rules triple --record "$r" | tail -n 1 | awk '{print $1}')
    sum=$((sum + n))
done
[ "$p2" = "$sum" ] || fail "perft depth 2 is '$p2', the moves after each first move add up to $sum"
"$PB" perft --rules triple --depth 2 > perft.txt || fail "perft (text) exited $?"
grep -qE "^ +2 +$sum " perft.txt || fail "perft text output lacks depth 2 = $sum: $(cat perft.txt)"

# A field wider than long is a triple field too (docs/rules.md §1): every
# command takes it, and the moves after each first move add up to perft's
# depth 2 there as well.
for cmd in info moves perft show; do
    "$PB" $cmd --rules triple --field 2,8,6 > out.txt 2> err.txt
    rc=$?
    [ "$rc" = 0 ] || fail "$cmd --rules triple --field 2,8,6 exited $rc: $(cat err.txt)"
done
W=(--rules triple --field 2,6,4)
w2=$("$PB" perft "${W[@]}" --depth 2 --json | grep -o '"sequences":[0-9]*' | sed -n 2p | cut -d: -f2)
wsum=0
"$PB" moves "${W[@]}" > moves.txt
for r in $(awk '/^[a-g][0-9]+-.* stop$/ {print $1}' moves.txt); do
    n=$("$PB" moves "${W[@]}" --record "$r" | tail -n 1 | awk '{print $1}')
    wsum=$((wsum + n))
done
[ "$wsum" -gt 0 ] && [ "$w2" = "$wsum" ] || fail "(2;6;4): perft depth 2 is '$w2', the moves after each first move add up to $wsum"
# ... and a square one.
"$PB" info --rules triple --field 2,6,6 > /dev/null || fail "triple (2;6;6) refused"

echo "triple CLI: checked (306 moves, perft(2) = $sum)"
finish
