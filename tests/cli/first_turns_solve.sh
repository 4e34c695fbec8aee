#!/bin/bash
# first_turns_solve.sh - scripts/first_turns_solve.sh, which solves each
# first-turn class of a start as a process of its own, in a copy of the
# scripts so that the repository's results stay as they are: every class's
# value for the first player against alpha-beta's --first-turns (a second
# method, in one process), the start's value it concludes against
# alpha-beta's value, and a class stopped by its time limit reported as
# unknown with its search's numbers.
# Usage: bash first_turns_solve.sh /path/to/paperball   (run in a scratch directory)
set -u
. "$(dirname "$0")/lib/check.sh"
copy_scripts
before=$(results_sum first_turns_book_2_4_4.md first_turns_book_2_6_6.md)
# classes_by_ab OPTIONS...: "route value" lines of alpha-beta's classes.
classes_by_ab() {
  "$pb" solve "$@" --algo ab --first-turns --quiet --json | python3 -c '
import json, sys
for t in json.load(sys.stdin)["first_turns"]:
    print(t["route"], t["value"])'
}
# classes_in FILE: "route value" lines of the script's table.
classes_in() {
  python3 -c '
import sys
for line in open(sys.argv[1]):
    c = [x.strip() for x in line.split("|")]
    if len(c) > 4 and c[1] not in ("class", "---"):
        print(c[1], c[3].split(",")[0])' "$1"
}
run() { # NAME OPTIONS...: the script on a field, its messages into NAME.err; prints its status
  local name=$1
  shift
  bash repo/scripts/first_turns_solve.sh --build "$(dirname "$pb")" --memory 64M --jobs 2 "$@" 2> "$name.err"
  echo $?
}
# field RULES FIELD [OPTION VALUE]: the script on a field's start, each
# class within 60 s, against alpha-beta.
field() {
  local rules=$1 field=$2 extra=("${@:3}") opts md st v want
  opts=(--rules "$rules" --field "$field" "${extra[@]}")
  st=$(run t --rules "$rules" --field "$field" --seconds 60 ${extra[0]+--extra "${extra[*]}"})
  check "$rules $field: status" 0 "$st"
  md=repo/results/first_turns_${rules}_${field//,/_}.md
  check "$rules $field: each class as alpha-beta's" "$(classes_by_ab "${opts[@]}")" "$(classes_in "$md")"
  v=$("$pb" solve "${opts[@]}" --algo ab --quiet --json | python3 -c 'import json, sys; print(json.load(sys.stdin)["value"])')
  case $v in
    win) want="a win for the first player" ;;
    loss) want="a loss for the first player" ;;
    draw) want="a draw: no class is a win" ;;
    *) want="($v)" ;;
  esac
  contains "$rules $field: the start's value ($v by alpha-beta)" "the start is $want" "$(cat "$md")"
}
field book 2,4,4
field book 2,4,6
field hockey 2,4,4 --setback 1
field hockey 2,4,8 --setback 1
# A class cut off by its time limit: unknown, with its search's numbers.
st=$(run cut --rules book --field 2,6,6 --seconds 0.2)
check "book 2,6,6 in 0.2 s: status" 0 "$st"
md=repo/results/first_turns_book_2_6_6.md
contains "stopped: the start unknown" "the start's value stays unknown: 0 of 5 classes proven" "$(cat "$md")"
contains "stopped: a class's numbers" "| d5-d4 | 1 | unknown | can bottom win? |" "$(cat "$md")"
# Ctrl-C while the classes of book (2;6;6) are solved (60 s each): the
# classes cut short exit 3 as at their time limit, so no page, status 3.
rm -f "$md"
ctrl_c int.log "classes, 60 s each" bash repo/scripts/first_turns_solve.sh --build "$(dirname "$pb")" --memory 64M \
    --jobs 2 --field 2,6,6 --seconds 60
check "Ctrl-C: status 3" 3 $?
check "Ctrl-C: says so" "first_turns_solve.sh: stopped; no page written" "$(tail -1 int.log)"
[ -e "$md" ] && fail "Ctrl-C: a page written"
# Bad options: one line, status 2, no table.
rm -f repo/results/first_turns_book_2_4_4.md
check "bad --seconds: status" 2 "$(run bad --field 2,4,4 --seconds soon)"
check "bad --seconds: one line" 1 "$(wc -l < bad.err)"
check "bad --field: status" 2 "$(run bad --field 2,x,4 --seconds 1)"
check "bad --jobs: status" 2 "$(run bad --field 2,4,4 --seconds 1 --jobs none)"
[ -e repo/results/first_turns_book_2_4_4.md ] && fail "bad options: a table written"
check "repository results untouched" "$before" "$(results_sum first_turns_book_2_4_4.md first_turns_book_2_6_6.md)"
finish
