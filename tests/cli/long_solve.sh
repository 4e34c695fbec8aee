#!/bin/bash
# long_solve.sh - scripts/long_solve.sh, in a copy of the scripts so that
# the repository's results stay as they are: a finished run's page gives
# alpha-beta's value and each first-turn class's (a second method), and
# the line of play; a checkpoint named in --extra is
# kept beside the page, byte for byte the file the run wrote, and a later
# part resumed from a copy of it reads the value back without a node
# searched; a run stopped by its time limit, or by SIGTERM to its process
# group, keeps its checkpoint too (the page written after the solver
# saved); a run
# without one keeps nothing, and its page is whole even with no progress
# line to show; bad options stop with one line and status 2.
# Usage: bash long_solve.sh /path/to/paperball   (run in a scratch directory)
set -u
. "$(dirname "$0")/lib/check.sh"
copy_scripts
# Checkpoints of an earlier run in this scratch directory would be refused
# (a file that exists needs --resume): start without them.
rm -f -- *.ck
before=$(results_sum long_solve_book_2_6_6.md)
run() { # NAME OPTIONS...: the script, its messages into NAME.err; prints its status
  local name=$1
  shift
  bash repo/scripts/long_solve.sh --build "$(dirname "$pb")" --memory 64M "$@" 2> "$name.err"
  echo $?
}
ab=$("$pb" solve --rules book --field 2,4,6 --algo ab --quiet --json |
  python3 -c 'import json, sys; print(json.load(sys.stdin)["value"])')
check "book 2,4,6 by alpha-beta" win "$ab"
want="value        $ab for Top (the player to move)"

# A finished run with a checkpoint: the page, and the file kept beside it.
st=$(run one --field 2,4,6 --seconds 60 --part one --extra "--first-turns --checkpoint one.ck")
check "finished: status" 0 "$st"
md=repo/results/long_solve_book_2_4_6_one.md
kept=repo/results/checkpoints/long_solve_book_2_4_6_one.ck
contains "finished: exit status on the page" "- exit status: 0 " "$(cat "$md")"
contains "finished: alpha-beta's value on the page" "$want" "$(cat "$md")"
contains "finished: the kept checkpoint named" \
  "- checkpoint kept: \`results/checkpoints/long_solve_book_2_4_6_one.ck\` ($(wc -c < one.ck) bytes" "$(cat "$md")"
# Each first-turn class on the page with alpha-beta's value, and the line.
"$pb" solve --rules book --field 2,4,6 --algo ab --first-turns --quiet --json | python3 -c '
import json, sys
for t in json.load(sys.stdin)["first_turns"]:
    print(t["route"], t["value"])' > classes_ab.txt
python3 - "$md" classes_ab.txt > classes_page.txt << 'EOF'
import sys
page = open(sys.argv[1]).read().splitlines()
for want in open(sys.argv[2]):
    route, value = want.split()
    got = [l.split() for l in page if l.startswith("  " + route + " ")]
    print(route, got[0][1] if got else "missing")
EOF
check "finished: each class with alpha-beta's value" "$(cat classes_ab.txt)" "$(cat classes_page.txt)"
contains "finished: the line of play" "line         " "$(cat "$md")"
if cmp -s one.ck "$kept"; then echo "ok   finished: the kept file is the run's"; else fail "finished: the kept file differs"; fi

# A later part from a copy of the kept file: the value read back, 0 nodes.
cp "$kept" two.ck
st=$(run two --field 2,4,6 --seconds 60 --part two --extra "--checkpoint two.ck --resume")
check "resumed: status" 0 "$st"
md2=repo/results/long_solve_book_2_4_6_two.md
contains "resumed: the value" "$want" "$(cat "$md2")"
contains "resumed: nothing searched" "nodes        0 single steps" "$(cat "$md2")"
contains "resumed: its own kept file" "- checkpoint kept: \`results/checkpoints/long_solve_book_2_4_6_two.ck\`" "$(cat "$md2")"

# Stopped by its time limit: status 3 on the page, the checkpoint kept.
st=$(run cut --field 2,6,6 --seconds 1 --part cut --extra "--checkpoint cut.ck")
check "stopped: status" 0 "$st"
md3=repo/results/long_solve_book_2_6_6_cut.md
contains "stopped: exit status on the page" "- exit status: 3 " "$(cat "$md3")"
if cmp -s cut.ck repo/results/checkpoints/long_solve_book_2_6_6_cut.ck; then
  echo "ok   stopped: the kept file is the run's"
else
  fail "stopped: the kept file differs or is missing"
fi

# SIGTERM to the whole process group (what Slurm and `kill -- -PGID` send),
# half-way: the solver stops as at its time limit (status 3, what it
# reached printed, its checkpoint saved) and the page is written after it,
# with time's line and the file the solver saved last.
setsid bash repo/scripts/long_solve.sh --build "$(dirname "$pb")" --memory 64M --field 2,6,6 --seconds 60 \
  --part term --extra "--checkpoint term.ck" 2> term.err &
leader=$!
sleep 3
kill -TERM -- -"$leader"
wait "$leader"
check "SIGTERM to the group: the script's status" 0 $?
md4=repo/results/long_solve_book_2_6_6_term.md
contains "SIGTERM to the group: the solver's status 3" "- exit status: 3 " "$(cat "$md4" 2>/dev/null)"
contains "SIGTERM to the group: time's line" "time: " "$(cat "$md4" 2>/dev/null)"
if cmp -s term.ck repo/results/checkpoints/long_solve_book_2_6_6_term.ck; then
  echo "ok   SIGTERM to the group: the kept file is the one saved last"
else
  fail "SIGTERM to the group: the kept file differs or is missing"
fi

# Without a checkpoint: no line, no file.
st=$(run none --field 2,4,4 --seconds 60 --part none)
check "no checkpoint: status" 0 "$st"
case $(cat repo/results/long_solve_book_2_4_4_none.md) in
  *"checkpoint kept"*) fail "no checkpoint: a kept file named" ;;
  *) echo "ok   no checkpoint: none named" ;;
esac
[ -e repo/results/checkpoints/long_solve_book_2_4_4_none.ck ] && fail "no checkpoint: a file kept"
# A run too short for a progress line: the page still whole (its last
# block closed).
check "no progress line: the page closed" '```' "$(tail -n 1 repo/results/long_solve_book_2_4_4_none.md)"

# Bad options: one line, status 2, no page.
check "bad --part: status" 2 "$(run bad --field 2,4,4 --seconds 1 --part 'Two Words')"
check "bad --part: one line" 1 "$(wc -l < bad.err)"
check "bad --build: status" 2 "$(run bad --field 2,4,4 --seconds 1 --build nowhere)"
check "bad --build: one line" 1 "$(wc -l < bad.err)"
[ -e "repo/results/long_solve_book_2_4_4_Two Words.md" ] && fail "bad --part: a page written"
check "repository results untouched" "$before" "$(results_sum long_solve_book_2_6_6.md)"
finish
