#!/usr/bin/env bash
# play.sh - `paperball play` with piped input: turns, refusals with reasons,
# commands, the result and the final record, exit statuses.
#   bash tests/cli/play.sh /path/to/paperball
set -u
. "$(dirname "$0")/lib/check.sh"

# run NAME INPUT ARGS...: runs play with INPUT on stdin; sets out, err, rc.
run() {
    local name=$1 input=$2
    shift 2
    out=$(printf '%b' "$input" | "$pb" play "$@" 2>stderr.txt)
    rc=$?
    err=$(cat stderr.txt)
    current=$name
}
has() { grep -qF -- "$1" <<<"$out" || fail "$current: output lacks '$1'"$'\n'"$out"; }
lacks() { ! grep -qF -- "$1" <<<"$out" || fail "$current: output has '$1'"; }
status() { [ "$rc" -eq "$1" ] || fail "$current: exit status $rc, want $1 (stderr: $err)"; }
count() { local n; n=$(grep -cF -- "$1" <<<"$out"); [ "$n" -eq "$2" ] || fail "$current: '$1' $n times, want $2"; }

# A whole game to a dead end in the corner g2: Bottom's fourth-turn route
# bounces into a node with no exit.
run deadend 'd6-e5\ne5-f4\nf4-f3\nf3-g2\n'
status 0
has 'Top to move, ball on d6'
has 'Bottom to move, ball on e5'
has 'Bottom to move, ball on f3'
has 'game over: dead end: Bottom loses'
has 'record: 1. d6-e5 2. e5-f4 3. f4-f3 4. f3-g2 X'
has 'Top played d6-e5'
has 'Bottom played f3-g2'
# The board is shown after each of the four turns (and once at the start):
# each status line follows a board.
count 'to move, ball on' 4

# Illegal routes are refused with the reason and the same player is asked
# again; the game then goes on normally.
run refusals 'd6-e7\ne7-d6\ne7-g9\nd6-c7\ne7-f8-g8\nz9-a1\ne7-e6\nquit\n'
status 0
has 'refused: move 2 (e7-d6): segment e7-d6 is already drawn'
has 'refused: move 2 (e7-g9):'
has 'not a step to a neighbouring node'
has 'refused: move 2 (d6-c7): the route starts at d6 but the ball is on e7'
has 'refused: move 2 (e7-f8-g8):'
has 'refused: move 2: bad node'
count '2. Bottom> ' 6
has 'record: 1. d6-e7 2. e7-e6'

# Commands: moves lists every legal turn; undo takes back; record prints.
run commands 'moves\nd6-e7\nundo\nundo\nd6-c7!\nrecord\nhelp\nboard\nquit\n'
status 0
has '8 legal turns'
has '  d6-e7                    stop'
has 'nothing to undo'
has 'record: 1. d6-c7!'
has 'Top played d6-c7!'
has 'moves    list the legal turns'
count 'Bottom to move, ball on c7' 2

# distinct: one route per distinct position after the turn.  From the
# start every turn is one step (8); book (2;4;4) after four turns has 460
# routes into 192 positions (tests/cli/model.sh finds both by grouping the
# whole route list).
run distinct 'distinct\nquit\n'
has '8 distinct turns (positions after the turn)'
has '  d6-e7                    stop                     1 route'
run distinct_late 'distinct\nhelp\nquit\n' --field 2,4,4 --record 'c4-b4 b4-a3-b2-b3 b3-b4-c3 c3-b2-c2'
has '192 distinct turns (positions after the turn)'
has 'distinct one route per distinct position'

# One route per line; a header or an early end mark is refused.
run oneline 'd6-e7 e7-f8\nX\n(Н;В)\nquit\n'
status 0
has 'refused: one route per line'
has "refused: end mark 'X' before the first move"
has 'refused: who plays first is fixed'
has 'record: (no moves)'

# End of input mid-game: the game goes on, the record is printed, status 0.
run eof 'd6-e7\n'
status 0
has 'end of input: the game goes on'
has 'record: 1. d6-e7'
lacks 'game over'

# A starting position from --record, on the tiny field; an own goal ends it.
run own_goal 'b2-b1\n' --field 2,2,2 --record 'b3-b2'
status 0
has 'Bottom to move, ball on b2'
has 'game over: own goal: Top wins'
has 'record: 1. b3-b2 2. b2-b1 X'

# Bottom first; undo does not take back the starting record.
run bottom_first 'undo\nc2-c1\n' --field 2,2,2 --record '(Н;В) b3-c3-b2'
status 0
has 'nothing to undo'
has 'refused: move 2 (c2-c1):'
has 'record: (Н;В) 1. b3-c3-b2'

# A record file as the starting position.
printf '1. d6-e7 2. e7-f8\n' > start.txt
run record_file 'quit\n' --record-file start.txt
status 0
has 'Top to move, ball on f8'

# Hockey: a goal from the field side ends the game.
run hockey 'e6-e5\ne5-e4\ne4-e3\ne3-e2\n' --rules hockey
status 0
has 'game over: own goal: Top wins'

# Bad input: one-line error on stderr, exit 2.
run bad_record '' --record 'd6-e7 e7-d6'
status 2
[ "$err" = "paperball: move 2 (e7-d6): segment e7-d6 is already drawn" ] || fail "bad_record: stderr '$err'"
run stdin_record '' -
status 2
grep -q "standard input" <<<"$err" || fail "stdin_record: stderr '$err'"
run bad_option '' --rules chess
status 2
[ "$(wc -l <<<"$err")" -eq 1 ] || fail "bad_option: stderr not one line: '$err'"
"$pb" play --help | grep -q 'usage: paperball play' || fail "play --help"

if [ "$fails" -ne 0 ]; then
    echo "$fails failure(s)"
    exit 1
fi
echo "play: all passed"
