#!/bin/bash
# shortest.sh - `paperball solve --shortest` from the command line: value
# and distance against the tablebase's probe (built here, the independent
# method) at the start and after every first turn and every second turn of
# the book's (2;2;4), in JSON and text; the line replayed to its end; the
# options it refuses; a time limit (exit 3).
# Usage: bash shortest.sh /path/to/paperball   (run in a scratch directory)
. "$(dirname "$0")/lib/check.sh"
F=(--field 2,2,4)

"$pb" tb build "${F[@]}" --out b.pbt --quiet > /dev/null || fail "tb build"

# value and distance as "win 3" from a JSON line of either command.
vd() { sed 's/.*"value":"\([a-z]*\)","distance":\([0-9a-z]*\).*/\1 \2/'; }

# The records: the start, every first turn, and every second turn after the
# first turn listed first (routes taken from the probe itself).
routes() { grep -o '"route":"[^"]*","ends":false' | cut -d'"' -f4; }
recs=("")
while read -r r; do recs+=("$r"); done < <("$pb" tb probe b.pbt --json | routes)
first=${recs[1]}
while read -r r; do recs+=("$first $r"); done < <("$pb" tb probe b.pbt --record "$first" --json | routes)
[ "${#recs[@]}" -gt 20 ] || fail "too few records: ${#recs[@]}"

n=0
for rec in "${recs[@]}"; do
  args=(); [ -n "$rec" ] && args=(--record "$rec")
  want=$("$pb" tb probe b.pbt "${args[@]}" --json | sed 's/^{[^[]*"value":"\([a-z]*\)","distance":\([0-9]*\).*/\1 \2/')
  out=$("$pb" solve "${F[@]}" "${args[@]}" --shortest --json --quiet)
  got=$(echo "$out" | vd)
  [ "$want" = "$got" ] || fail "'$rec': probe [$want], solve --shortest [$got]"
  # The line: as many turns as the distance, and the game over after it.
  d=${got#* }
  pv=$(echo "$out" | sed 's/.*"pv":\[\([^]]*\)\].*/\1/' | tr -d '"' | tr ',' ' ')
  nturns=$(echo "$pv" | wc -w)
  [ "$nturns" = "$d" ] || fail "'$rec': a line of $nturns turns for distance $d"
  "$pb" solve "${F[@]}" --record "$rec $pv" --quiet | grep -q "the game is over" || fail "'$rec': the line does not end the game"
  n=$((n + 1))
done
check "records compared" "${#recs[@]}" "$n"

text=$("$pb" solve "${F[@]}" --shortest --quiet)
contains "text: the distance" "distance     5 turns to the end (the longest defence" "$text"
contains "text: the line" "(5 turns; the winner ends as fast as it can" "$text"

check "refuses --first-turns" 2 "$(status "$pb" solve --shortest --first-turns)"
check "refuses --batch" 2 "$(status "$pb" solve --shortest --batch /dev/null)"
check "refuses --algo pn" 2 "$(status "$pb" solve --shortest --algo pn)"
check "refuses --threads 2" 2 "$(status "$pb" solve --shortest --threads 2)"
check "time limit: exit 3" 3 "$(status "$pb" solve --field 2,6,8 --shortest --time-limit 0.5)"
finish
