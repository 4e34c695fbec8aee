#!/bin/bash
# along_game.sh - scripts/along_game.sh, which solves the positions of one
# game from its end back towards the start, in a copy of the scripts so that
# the repository's results stay as they are: every value on its page against
# alpha-beta's for the same position (a second method), with the proofs of
# each position carried to the one before and without, the proofs kept and
# read again by a walk that goes on (--proofs), the walk's stop after
# the positions it could not solve, a rerun reading finished positions back,
# a stop by SIGTERM to the process group, and bad options.
# Usage: bash along_game.sh /path/to/paperball   (run in a scratch directory)
set -u
. "$(dirname "$0")/lib/check.sh"
copy_scripts
before=$(results_sum along_game_book_2_6_8.md)
run() { # NAME OPTIONS...: the script, its messages into NAME.err; prints its status
  local name=$1
  shift
  bash repo/scripts/along_game.sh --build "$(dirname "$pb")" --memory 64M --threads 1 "$@" 2> "$name.err"
  echo $?
}
# rows FILE: "turns to-move value" of the page's table.
rows() {
  python3 -c '
import sys
for line in open(sys.argv[1]):
    c = [x.strip() for x in line.split("|")]
    if len(c) > 4 and c[1].isdigit():
        print(c[1], c[2], c[3].strip("*"))' "$1"
}
# by_ab RULES FIELD RECORD OPTIONS...: "turns to-move value" by alpha-beta, for
# every position of RECORD from its last turn down to the start.
by_ab() {
  local rules=$1 field=$2 rec=$3 k
  shift 3
  local -a t
  read -r -a t <<<"$rec"
  for ((k = ${#t[@]}; k >= 0; k--)); do
    "$pb" solve --rules "$rules" --field "$field" "$@" --record "${t[*]:0:k}" --algo ab --quiet --json |
      python3 -c '
import json, sys
d = json.load(sys.stdin)
if not d.get("game_over"):
    print(sys.argv[1], d["to_move"], d["value"])' "$k"
  done
}

# A book game that ends in a goal (its last position is no question) and a
# drawn hockey game: every position solved, each value as alpha-beta's.
rec='c5-c4 c4-d4 d4-e3-d2-c1'
check "book 2,4,6: status" 0 "$(run b --field 2,4,6 --record "$rec" --seconds 60)"
md=repo/results/along_game_book_2_4_6.md
check "book 2,4,6: values as alpha-beta's" "$(by_ab book 2,4,6 "$rec")" "$(rows "$md")"
contains "book 2,4,6: the verdict" "every position of the game from 2 turns in back to the start was solved" "$(cat "$md")"
svg=repo/results/img/along-game-book-2-4-6.svg
[ -s "$svg" ] && head -c 300 "$svg" | grep -q '<svg' || fail "book 2,4,6: no picture of the start's line"
contains "book 2,4,6: the page shows the picture" "](img/along-game-book-2-4-6.svg)" "$(cat "$md")"
# The proofs carried (the default): each position but the first read the
# checkpoint of the one after it.
contains "book 2,4,6: proofs carried" "proven positions from" "$(cat repo/build/along_game_book_2_4_6/1.err)"
contains "book 2,4,6: the page says so" "proofs carried" "$(cat "$md")"
# proofs_read FILE: "turns proofs-read" of the page's table.
proofs_read() { python3 -c '
import sys
for line in open(sys.argv[1]):
    c = [x.strip() for x in line.split("|")]
    if len(c) > 7 and c[1].isdigit():
        print(c[1], c[6])' "$1"; }
check "book 2,4,6: the proofs read, from the second position on" \
  "$(cat repo/build/along_game_book_2_4_6/[0-9]*.err | grep -c 'proven positions from')" \
  "$(proofs_read "$md" | awk '$2 != "-"' | wc -l)"
check "book 2,4,6: none read by the first" "-" "$(proofs_read "$md" | sed -n 1p | cut -d' ' -f2)"
# Each position alone: the same values.
check "--carry no: status" 0 "$(run nc --field 2,4,6 --record "$rec" --seconds 60 --carry no)"
check "--carry no: values as alpha-beta's" "$(by_ab book 2,4,6 "$rec")" "$(rows "$md")"
check "--carry no: no proofs read" "" "$(grep -l 'proven positions from' repo/build/along_game_book_2_4_6/*.err)"
check "--carry no: no proofs read listed" "" "$(proofs_read "$md" | awk '$2 != "-"')"
run b --field 2,4,6 --record "$rec" --seconds 60 > /dev/null
# The last position's proofs are kept beside the page; a walk on another
# machine goes on from them (--from, --proofs): the first position it
# solves reads them, and its values are alpha-beta's.
kept=repo/results/checkpoints/along_game_book_2_4_6.ck
[ -s "$kept" ] && echo "ok   the proofs kept in results/checkpoints/" || fail "no proofs kept"
contains "the page names the kept proofs" "proofs kept: \`results/checkpoints/along_game_book_2_4_6.ck\`" "$(cat "$md")"
cp "$kept" elsewhere.ck
check "--proofs: status" 0 "$(run pf --field 2,4,6 --record "$rec" --seconds 60 --from 1 --proofs elsewhere.ck --part pf)"
check "--proofs: values as alpha-beta's" "$(by_ab book 2,4,6 "$rec" | tail -2)" "$(rows repo/results/along_game_book_2_4_6_pf.md)"
contains "--proofs: the first position read them" "proven positions from $PWD/elsewhere.ck" \
  "$(cat repo/build/along_game_book_2_4_6_pf/1.err)"
contains "--proofs: the page says so, by the file's name" "also read the proofs of \`elsewhere.ck\`" \
  "$(cat repo/results/along_game_book_2_4_6_pf.md)"
hrec='c5-b4 b4-c4 c4-c3 c3-b4-a5-b6 b6-c5-d5 d5-c4-c5-c6'
check "hockey 2,4,8: status" 0 "$(run h --rules hockey --field 2,4,8 --record "$hrec" --seconds 60 --extra "--setback 1")"
check "hockey 2,4,8: values as alpha-beta's" "$(by_ab hockey 2,4,8 "$hrec" --setback 1)" \
  "$(rows repo/results/along_game_hockey_2_4_8.md)"

# A rerun with the same options reads every position back; another time
# limit solves them again.
cp "$md" first.md
check "rerun: status" 0 "$(run r --field 2,4,6 --record "$rec" --seconds 60)"
check "rerun: every position read back" 4 "$(grep -c 'read back' r.err)"
contains "rerun: the page says so" "positions solved by this run: 0; read back from an earlier run with the same options: 4" "$(cat "$md")"
check "rerun: the same table" "$(grep '^|' first.md)" "$(grep '^|' "$md")"
run r2 --field 2,4,6 --record "$rec" --seconds 50 > /dev/null
check "another time limit: solved again" 4 "$(grep -c 'solving' r2.err)"

# Positions that do not fall: the walk stops after --misses of them in a row.
check "2,6,8 in 0.3 s: status" 0 "$(run m --game book-2-6-8-after-20 --from 1 --seconds 0.3 --misses 2)"
md=repo/results/along_game_book_2_6_8.md
check "2,6,8 in 0.3 s: the walk stops after two" "1 0" "$(rows "$md" | cut -d' ' -f1 | xargs)"
contains "2,6,8 in 0.3 s: not solved" "| 1 | bottom | not solved | - |" "$(cat "$md")"
contains "2,6,8 in 0.3 s: the verdict" "the position after 1 turn was not solved within 0.3 s" "$(cat "$md")"
check "2,6,8 in 0.3 s: no picture" "" "$(ls repo/results/img/along-game-book-2-6-8.svg 2> /dev/null)"
check "with --misses 1: one position tried" "1" \
  "$(run m1 --game book-2-6-8-after-20 --from 1 --seconds 0.3 --misses 1 > /dev/null; rows "$md" | cut -d' ' -f1 | xargs)"

# SIGTERM to the process group (what Slurm sends) while a position is being
# solved: status 3, the page written with the positions done before, and
# the position cut short kept nowhere (solved again by the next run).
setsid bash repo/scripts/along_game.sh --build "$(dirname "$pb")" --memory 64M --threads 1 \
  --game book-2-6-8-after-20 --seconds 120 --part sig > sig.out 2> sig.err &
pid=$!
for _ in $(seq 100); do grep -q solving sig.err 2> /dev/null && break; sleep 0.1; done
sleep 1
kill -TERM -- "-$pid"
st=0
wait "$pid" || st=$?
check "SIGTERM: status" 3 "$st"
md=repo/results/along_game_book_2_6_8_sig.md
contains "SIGTERM: the page says so" "stopped by a signal" "$(cat "$md" 2> /dev/null)"
check "SIGTERM: no position listed" "" "$(rows "$md")"
run s2 --game book-2-6-8-after-20 --seconds 0.3 --misses 1 --part sig > /dev/null
check "SIGTERM: the position cut short is solved again" 1 "$(grep -c 'after 19 turn(s): solving' s2.err)"

# Bad options: one line, status 2, no page.
rm -f repo/results/along_game_book_2_4_6.md
check "bad --seconds: status" 2 "$(run bad --field 2,4,6 --record "$rec" --seconds soon)"
check "bad --seconds: one line" 1 "$(wc -l < bad.err)"
check "bad --from: status" 2 "$(run bad --field 2,4,6 --record "$rec" --from 9)"
check "bad --misses: status" 2 "$(run bad --field 2,4,6 --record "$rec" --misses 0)"
check "bad --carry: status" 2 "$(run bad --field 2,4,6 --record "$rec" --carry maybe)"
check "missing --proofs: status" 2 "$(run bad --field 2,4,6 --record "$rec" --proofs no-such.ck)"
check "missing --proofs: one line" 1 "$(wc -l < bad.err)"
head -c 100 elsewhere.ck > cut.ck
check "damaged --proofs: status" 2 "$(run bad --field 2,4,6 --record "$rec" --proofs cut.ck --part cut)"
check "bad --game: status" 2 "$(run bad --game no-such-game)"
check "illegal record: status" 2 "$(run bad --field 2,4,6 --record "c5-c4 c4-c5")"
check "illegal record: one line" 1 "$(wc -l < bad.err)"
[ -e repo/results/along_game_book_2_4_6.md ] && fail "bad options: a page written"
check "repository results untouched" "$before" "$(results_sum along_game_book_2_6_8.md)"
finish
