#!/bin/bash
# kept_runs.sh - scripts/kept_runs.sh carries a table's finished runs to
# another machine: a table made with -k, its finished runs saved, then put
# back into an empty keep directory (a new machine), must be made again
# from them alone (every row kept, the same counts); a run in progress is
# not saved, and nothing already there is overwritten.
# Usage: bash kept_runs.sh /path/to/paperball   (run in a scratch directory)
set -u
. "$(dirname "$0")/lib/check.sh"
scripts=$(cd "$(dirname "$0")/../.." && pwd)/scripts
W=$(mktemp -d kept-cli.XXXXXX)
cd "$W" || exit 1

tables() {   # OUT KEEP
    bash "$scripts/enumeration_tables.sh" -t 2 -c 2 -T 6 -j 1 -m 1G -b "$pb" -o "$1" -k "$2" 2> "$1.err"
}
# The rows of counted fields (the second table, its kept runs taking no
# time, may go on to further fields within its time budget).
rows() { grep '^| [a-z]* | (' "$1/enumeration.md" | grep -v 'not tried'; }

mkdir -p one two
tables one keep1
check "first table: status" 0 $?
ran=$(ls keep1 | wc -l)
[ "$ran" -gt 4 ] || fail "first table: only $ran runs kept"

# A run in progress: a checkpoint and seconds, no exit status.
mkdir -p keep1/inprogress/ck
echo 12.5 > keep1/inprogress/spent
echo layer > keep1/inprogress/ck/field.pbt.L3
# A finished enumeration with 100 progress lines of one depth (written by
# hand): lines 1, 31, 61, 91 and 100 kept, and every other line.
mkdir -p keep1/progress
echo 0 > keep1/progress/rc
echo 200.0 > keep1/progress/spent
{
    echo "enumerate: depth 7 done: 491292 positions (64456 of depth 6 expanded per s), 1.7 s"
    for i in $(seq 1 100); do echo "enumerate: depth 8: $i/100 expanded (1/s), 5 positions so far, $i.0 s"; done
    echo "enumerate: depth 8 done: 1329254 positions (16869 of depth 7 expanded per s), 200.0 s"
} > keep1/progress/err.txt
# A copy of it cut short by an earlier stop: begun again.
mkdir -p saved/.progress.tmp
bash "$scripts/kept_runs.sh" save keep1 saved 2> save.err
check "save: no copy cut short left" "" "$(ls -A saved | grep tmp)"
check "save: progress lines thinned" "$(printf '%s\n' 'depth 7 done' 1/100 31/100 61/100 91/100 100/100 'depth 8 done')" \
    "$(grep -o 'depth [0-9] done\|[0-9]*/100' saved/progress/err.txt)"
rm -r keep1/progress saved/progress
check "save: status" 0 $?
check "save: every finished run" "$ran" "$(ls saved | grep -vc README.md)"
check "save: not the run in progress" "" "$(ls saved | grep inprogress)"
check "save: no checkpoint files" "" "$(find saved -name ck)"
check "save: no path of this machine" "" "$(grep -rl "$PWD/keep1" saved)"
contains "save: the keep directory written KEEP" "KEEP/" "$(cat saved/*/out.txt)"
contains "save: a README says what they are" "Kept runs" "$(cat saved/README.md)"

# A new machine: an empty keep directory filled from the saved runs.
bash "$scripts/kept_runs.sh" load saved keep2 2> load.err
check "load: status" 0 $?
contains "load: runs counted" "$ran run(s) copied" "$(cat load.err)"
tables two keep2
check "second table: status" 0 $?
# Each row of the first table comes back from a kept run, the same.
while read -r row; do
    field=$(echo "$row" | awk -F' [|] ' '{ sub(/^[|] /, "", $1); print $1 " " $2 }')
    check "second table: $field the same" "$row" "$(rows two | grep -F -x -- "$row")"
    contains "second table: $field kept" "$field" "$(grep 'kept from an earlier run' two.err)"
done < <(rows one)

# Nothing overwritten: a changed run in the keep directory stays as it is.
first=$(ls saved | grep -v README.md | head -1)
echo 99.0 > "keep2/$first/spent"
bash "$scripts/kept_runs.sh" load saved keep2 2> load2.err
check "load again: nothing overwritten" "99.0" "$(cat "keep2/$first/spent")"
contains "load again: nothing copied" "0 run(s) copied" "$(cat load2.err)"

check "bad command: status 2" 2 "$(status bash "$scripts/kept_runs.sh" copy keep1 x)"
check "missing directory: status 2" 2 "$(status bash "$scripts/kept_runs.sh" save nowhere x)"
finish
