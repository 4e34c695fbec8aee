#!/usr/bin/env bash
# notation.sh - game records on the command line: `moves --record` and
# `perft --record-file` with good records in the book's many spellings, and
# bad ones (exit 2, one line "paperball: ..." on stderr).
#   bash tests/cli/notation.sh /path/to/paperball
set -u
. "$(dirname "$0")/lib/check.sh"

# ok NAME ARGS...: must exit 0; output in $out.
ok() {
    local name=$1
    shift
    out=$("$pb" "$@" 2>stderr.txt)
    local rc=$?
    [ "$rc" -eq 0 ] || fail "$name: exit $rc: $(cat stderr.txt)"
}
# bad NAME MESSAGE ARGS...: must exit 2 with exactly one stderr line MESSAGE.
bad() {
    local name=$1 want=$2
    shift 2
    "$pb" "$@" >stdout.txt 2>stderr.txt
    local rc=$?
    local got
    got=$(cat stderr.txt)
    [ "$rc" -eq 2 ] || fail "$name: exit $rc, want 2"
    [ "$(wc -l <stderr.txt)" -eq 1 ] || fail "$name: stderr is not one line: '$got'"
    [ "$got" = "paperball: $want" ] || fail "$name: stderr '$got', want 'paperball: $want'"
}

# --- moves --record ---
# After one turn the ball rests on a fresh node with 7 free segments whose
# neighbours are all empty: 7 routes, all stops.
ok moves_one moves --record 'd6-e7'
grep -q '^Bottom to move' <<<"$out" || fail "moves_one: not Bottom to move"
grep -q '^7 turns$' <<<"$out" || fail "moves_one: want 7 turns: $out"
[ "$(grep -c ' stop$' <<<"$out")" -eq 7 ] || fail "moves_one: want 7 stops"

# The same game written in other ways lists the same turns.
ok moves_canon moves --record '1. d6-e7 2. e7-f8'
canon=$out
for rec in 'd6-e7 e7-f8' '1.d6–e7, 1…e7-f8!' '{a game} 1) d6-e7 act 2) e7-f8 ку2 ЧВ(В)' '(В;Н) d6-e7 e7-f8' \
           '(T;B) 1. d6-e7!? 2. e7-f8??'; do
    ok moves_variant moves --record "$rec"
    [ "$out" = "$canon" ] || fail "moves_variant '$rec' lists other turns"
done
grep -q '^Top to move' <<<"$canon" || fail "moves_canon: Top should move"
# With Bottom first the same routes leave Bottom to move.
ok moves_bottom moves --record '(Н;В) d6-e7 e7-f8'
grep -q '^Bottom to move' <<<"$out" || fail "moves_bottom: Bottom should move"

# A finished game has no moves; the JSON form agrees.
ok moves_over moves --record '1. d6-e5 2. e5-f4 3. f4-f3 4. f3-g2 X'
grep -q 'the game is over: dead end: Bottom loses' <<<"$out" || fail "moves_over: $out"
ok moves_over_json moves --json --record '1. d6-e5 2. e5-f4 3. f4-f3 4. f3-g2 X'
grep -q '"over":true' <<<"$out" || fail "moves_over_json: $out"

# --- perft --record-file ---
# perft(1) from a record is the number of turns moves lists there.
printf '1. d6-e7 2. e7-f8 {comment}\n' > game.txt
ok perft_file perft --json --depth 2 --record-file game.txt
seq1=$(sed -n 's/.*"depth":1,"sequences":\([0-9]*\).*/\1/p' <<<"$out")
ok moves_json moves --json --record '1. d6-e7 2. e7-f8'
n=$(sed -n 's/.*"count":\([0-9]*\).*/\1/p' <<<"$out")
[ -n "$seq1" ] && [ "$seq1" = "$n" ] || fail "perft(1) $seq1 from the file != $n moves"
# The file and --record give the same counts.
ok perft_file_text perft --depth 3 --record-file game.txt
a=$out
ok perft_record_text perft --depth 3 --record '1. d6-e7 2. e7-f8'
[ "$a" = "$out" ] || fail "perft --record-file and --record differ"
# A record on standard input too.
out=$(printf '(Н;В) 1. d6-e7' | "$pb" moves --record-file - 2>stderr.txt) || fail "stdin record: $(cat stderr.txt)"
grep -q '^Top to move' <<<"$out" || fail "stdin record: Top should move: $out"

# --- bad records: exit 2 and one line naming the move and the reason ---
bad drawn 'move 2 (e7-d6): segment e7-d6 is already drawn' moves --record 'd6-e7 e7-d6'
bad node "move 2: bad node 'z9'" moves --record '1. d6-e7 2. z9-e8'
bad annot "unknown annotation 'foo' after move 1" moves --record 'd6-e7 foo'
bad over 'move 5: the game is already over' moves --record '1. d6-e5 2. e5-f4 3. f4-f3 4. f3-g2 5. g2-f2'
bad endmark "end mark 'X' after move 1, but the game goes on" moves --record 'd6-e7 X'
bad header "bad header '(В;В)': expected (В;Н) or (Н;В)" moves --record '(В;В) d6-e7'
bad comment "unterminated comment '{oops' after move 1" moves --record 'd6-e7 {oops'
bad start 'move 2 (d6-c7): the route starts at d6 but the ball is on e7' moves --record 'd6-e7 d6-c7'
printf '1. d6-e7\n2. e7-e6\n3. e6-d6\n' > bad.txt
bad file_occupied 'move 3 (e6-d6): the route ends on d6, an occupied node: the same player must go on' \
    perft --depth 1 --record-file bad.txt
printf 'd6-e7 \001\002 e7-f8\n' > junk.txt
bad file_junk "unknown annotation '\\x01\\x02' after move 1" perft --depth 1 --record-file junk.txt
bad missing_file "cannot read record file 'no-such-file.txt': No such file or directory" \
    perft --record-file no-such-file.txt

if [ "$fails" -ne 0 ]; then
    echo "$fails failure(s)"
    exit 1
fi
echo "notation: all passed"
