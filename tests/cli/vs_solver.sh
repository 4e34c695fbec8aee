#!/usr/bin/env bash
# vs_solver.sh - `play --vs-solver` with scripted standard input: the
# commands of two-person play (board, moves, undo, record), the choice of
# side, the record at the end, prompts in the field's own notation, the
# notice for a position beyond reach, and perfect play (the result that
# `solve`, a separate search, promises).
. "$(dirname "$0")/lib/check.sh"
F="--field 2,4,4"
first() { grep -o '"value":"[a-z]*"' | head -1 | cut -d'"' -f4; }
v=$("$pb" solve $F --json --quiet | first)
check "solve knows the start" 1 "$(case $v in win|loss|draw) echo 1;; esac)"

# The person takes Bottom and lets the solver choose each turn ("go"):
# perfect play on both sides ends as solve says.
log=$(for _ in $(seq 1 40); do echo go; done | "$pb" play --vs-solver $F --side bottom); st=$?
check "play to the end: status" 0 "$st"
contains "side announced" "You play Bottom, the solver plays Top." "$log"
contains "the solver opens" "solver (Top) played" "$log"
contains "game over" "game over: " "$log"
contains "record at the end" "record: 1. " "$(echo "$log" | tail -1)"
winner=$(echo "$log" | grep '^game over' | grep -o 'Top wins\|Bottom wins\|Top loses\|Bottom loses')
case "$v:$winner" in
  win:"Top wins"|win:"Bottom loses"|loss:"Bottom wins"|loss:"Top loses") echo "ok   perfect play ends as solve says";;
  *) fail "solve says $v for Top, the game ended '$winner'";;
esac

# Moves, a turn, the solver's reply, undo back to the person's turn,
# record; refused input.
r=$("$pb" solve $F --json --quiet | grep -o '"best":"[^"]*"' | cut -d'"' -f4)
log=$(printf 'moves\n%s\nundo\nrecord\nboard\nno-such\nquit\n' "$r" | "$pb" play --vs-solver $F --side top)
contains "moves" "legal turns" "$log"
contains "the person's turn" "Top played $r" "$log"
contains "the solver answers" "solver (Bottom) played" "$log"
contains "undo takes back both" "record: (no moves)" "$(echo "$log" | grep '^record' | head -1)"
contains "refused input" "refused: " "$log"
contains "undo at turn 3" "3. Top> undo" "$log"
check "prompts: 2 before the turn, 4 after undo (turn 1)" 6 "$(echo "$log" | grep -c '^1\. Top> ')"

# The field's own notation in the prompt: (2;2;2) has no d6.
log=$(echo quit | "$pb" play --vs-solver --field 2,2,2 --side bottom)
case "$log" in *d6-e7*) fail "(2;2;2) prompt names d6-e7";; *) echo "ok   no d6-e7 on (2;2;2)";; esac
contains "(2;2;2) example route" "such as b3-" "$log"

# Beyond reach: said at once (the time limit), and the game goes on.
start=$(date +%s)
log=$(printf 'e7-e8\nquit\n' | "$pb" play --vs-solver --field 2,8,10 --time-limit 0.3)
contains "beyond reach noticed" "beyond the solver's reach" "$log"
contains "an unproven turn" "(unproven)" "$log"
[ $(( $(date +%s) - start )) -lt 30 ] || fail "beyond reach took more than 30 s"

# Options of --vs-solver alone.
check "--side without --vs-solver" 2 "$(status "$pb" play --side top)"
finish
