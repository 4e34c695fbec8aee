#!/bin/bash
# enumerate.sh - `paperball enumerate` from the command line: figures that
# agree with perft, identical output for 1 and 2 threads, resume after a
# stop and after a kill, the memory budget, and bad checkpoints.
# Usage: bash enumerate.sh /path/to/paperball   (run in a scratch directory)
set -u
. "$(dirname "$0")/lib/check.sh"
P=$pb
run() { "$P" enumerate "$@"; }

W=$(mktemp -d enumerate-cli.XXXXXX)
cd "$W" || exit 1

# Text output of a field where every game ends.
run --field 2,2,2 --quiet > t.txt || fail "enumerate (2;2;2) failed"
grep -q '^complete: every game ends by depth 3' t.txt || fail "(2;2;2): not reported complete"
grep -q '^games: [0-9]' t.txt || fail "(2;2;2): no games total"
[ ! -e paperball-enum-book-2-2-2.ckpt ] || fail "checkpoint left behind after a complete run"

# CSV against perft, depth by depth (sequences, positions, finished).
run --field 2,2,4 --depth 4 --csv --quiet > e.csv || fail "enumerate --csv failed"
"$P" perft --positions --field 2,2,4 --depth 4 > p.txt || fail "perft failed"
for d in 1 2 3 4; do
    want=$(awk -v d=$d '$1 == d { print $2, $3, $4 }' p.txt)
    # columns: rules,goal,width,length,setback,dead_end,depth,positions,classes_lr,classes_full,sequences,finished
    got=$(awk -F, -v d=$d '$7 == d { print $11, $8, $12 }' e.csv)
    [ -n "$want" ] && [ "$want" = "$got" ] || fail "depth $d: perft says '$want', enumerate '$got'"
done
[ "$(head -1 e.csv | cut -d, -f1-12)" = "rules,goal,width,length,setback,dead_end,depth,positions,classes_lr,classes_full,sequences,finished" ] \
    || fail "CSV header"

# JSON: exact integers, totals.
run --rules hockey --field 2,2,4 --setback 0 --json --quiet > e.json || fail "enumerate --json failed"
grep -q '"complete":true' e.json || fail "JSON: not complete"
# The games, found by another method: perft's finished sequences summed over
# the depths (no game is longer than the field has segments, 20 here).
games=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["totals"]["games"])' e.json)
check "JSON games = perft's finished games" \
  "$("$P" perft --rules hockey --field 2,2,4 --setback 0 --depth 20 | awk 'NR > 1 {n += $3} END {print n}')" "$games"
# ... and a third: this field has the game tree of book (2;2;2) (only a
# dead end scores differently), where the proofs' step walk and turn walk
# each count 165350 finished games (results/theorems.md).
check "JSON games" 165350 "$games"
if command -v python3 > /dev/null; then
    python3 - e.json <<'PY' || fail "JSON: sums do not add up"
import json, sys
j = json.load(open(sys.argv[1]))
rows = j["depths"]
assert sum(r["finished"] for r in rows) == j["totals"]["games"]
assert sum(r["positions"] for r in rows) == j["totals"]["positions"]
assert j["totals"]["top_wins"] + j["totals"]["bottom_wins"] + j["totals"]["draws"] == j["totals"]["games"]
PY
fi
# Dead end as a draw or as a loss: the same games, draws become losses.
run --rules hockey --field 2,2,4 --setback 0 --dead-end loss --json --quiet > l.json || fail "--dead-end loss failed"
grep -q '"draws":0,' l.json || fail "--dead-end loss still has draws"
grep -q '"draws":0,' e.json && fail "--dead-end draw has no draws on hockey (2;2;4) S=0"

# 1 and 2 threads: identical output.
run --field 2,4,4 --depth 4 --threads 1 --quiet > t1.txt
run --field 2,4,4 --depth 4 --threads 2 --quiet > t2.txt
cmp -s t1.txt t2.txt || fail "1 and 2 threads differ"
run --field 2,4,4 --depth 4 --threads 3 --quiet > t3.txt
cmp -s t1.txt t3.txt || fail "1 and 3 threads differ"

# Resume after a --depth stop gives the uninterrupted figures.
run --field 2,2,4 --depth 4 --csv --quiet > d4.csv || fail "uninterrupted run to depth 4 failed"
run --field 2,2,4 --depth 2 --csv --quiet --checkpoint ck > /dev/null || fail "run to depth 2 failed"
[ -s ck/paperball-enum-book-2-2-4.ckpt ] || fail "no checkpoint after a --depth stop"
run --field 2,2,4 --depth 4 --csv --quiet --checkpoint ck --resume > resumed.csv || fail "resume failed"
cmp -s d4.csv resumed.csv || fail "resumed run differs from the uninterrupted one"

# Resume after a kill (SIGKILL, at whatever depth it had reached) runs to
# the end with the figures of an uninterrupted run, then drops the file.
"$P" enumerate --field 2,2,4 --csv --checkpoint kk --threads 2 > /dev/null 2> progress.txt &
pid=$!
for _ in $(seq 1 100); do
    grep -q 'depth 3 done' progress.txt 2> /dev/null && break
    sleep 0.1
done
kill -9 $pid 2> /dev/null
wait $pid 2> /dev/null
grep -q 'depth 3 done' progress.txt || echo "note: killed before depth 3 was finished"
run --field 2,2,4 --csv --quiet --checkpoint ck2 > whole.csv || fail "uninterrupted run failed"
if [ -e kk/paperball-enum-book-2-2-4.ckpt ]; then
    run --field 2,2,4 --csv --quiet --checkpoint kk --resume > killed.csv || fail "resume after kill failed"
    cmp -s whole.csv killed.csv || fail "resume after a kill differs from the uninterrupted run"
    [ ! -e kk/paperball-enum-book-2-2-4.ckpt ] || fail "checkpoint left after the resumed run completed"
else
    fail "no checkpoint after the kill"
fi

# --time-limit and SIGTERM: exit 3, the finished depths printed (the rows
# of an uninterrupted run), the checkpoint of the last kept; resuming it
# gives the uninterrupted figures.
run --field 2,4,4 --depth 5 --csv --quiet > d5.csv || fail "uninterrupted run to depth 5 failed"
# stopped WHAT RC CSV ERR MESSAGE: a stopped run's status, message, and
# printed depths (those rows of d5.csv; the last one's classes, left blank,
# aside).  Returns 1 if the run finished before the stop came.
stopped() {
    if [ "$2" -eq 0 ]; then
        echo "note: depth 5 finished before $1"
        return 1
    fi
    [ "$2" -eq 3 ] || fail "$1: exit $2, expected 3"
    grep -q "$5" "$4" || fail "$1: message '$(tail -1 "$4")'"
    local n=$(($(wc -l < "$3") - 1))
    [ $n -ge 1 ] && head -n $((n + 1)) d5.csv | cut -d, -f1-8,11- | cmp -s - <(cut -d, -f1-8,11- "$3") \
        || fail "$1: the printed depths differ"
}
run --field 2,4,4 --depth 5 --csv --quiet --time-limit 0.3 --checkpoint tl > tl.csv 2> tl.txt
if stopped --time-limit $? tl.csv tl.txt 'time limit reached.*last finished depth is [0-9]'; then
    [ -s tl/paperball-enum-book-2-4-4.ckpt ] || fail "--time-limit: no checkpoint kept"
    run --field 2,4,4 --depth 5 --csv --quiet --checkpoint tl --resume > tlr.csv || fail "resume after --time-limit failed"
    cmp -s d5.csv tlr.csv || fail "resume after --time-limit differs from the uninterrupted run"
fi
# A checkpoint written by 2 threads, resumed on 1: the rows of an
# uninterrupted run (on all processors).
run --field 2,4,4 --depth 3 --csv --quiet --threads 2 --checkpoint th > /dev/null || fail "run to depth 3 on 2 threads failed"
run --field 2,4,4 --depth 5 --csv --quiet --threads 1 --checkpoint th --resume > thr.csv || fail "resume on 1 thread failed"
cmp -s d5.csv thr.csv || fail "a 2-thread checkpoint resumed on 1 thread differs from the uninterrupted run"
"$P" enumerate --field 2,4,4 --depth 5 --csv --checkpoint st > st.csv 2> st.txt &
pid=$!
for _ in $(seq 1 100); do
    grep -q 'depth 2 done' st.txt 2> /dev/null && break
    sleep 0.1
done
kill -TERM $pid 2> /dev/null
wait $pid
stopped SIGTERM $? st.csv st.txt 'stopped by SIGTERM while building depth'

# The memory budget: a clean stop, exit 4, naming the last finished depth.
run --field 2,4,4 --depth 5 --memory 1M --quiet > /dev/null 2> mem.txt
rc=$?
[ $rc -eq 4 ] || fail "memory budget: exit $rc, expected 4"
grep -q 'last finished depth is [0-9]' mem.txt || fail "memory budget: message '$(cat mem.txt)'"
[ "$(wc -l < mem.txt)" -eq 1 ] || fail "memory budget: more than one line on stderr"

# Bad checkpoints and bad options: one line, exit 2.
mkdir -p bad
echo "not a checkpoint" > bad/paperball-enum-book-2-2-2.ckpt
run --field 2,2,2 --checkpoint bad --resume --quiet > /dev/null 2> bad.txt
rc=$?
[ $rc -eq 2 ] || fail "garbage checkpoint: exit $rc, expected 2"
[ "$(wc -l < bad.txt)" -eq 1 ] && grep -q '^paperball: bad checkpoint' bad.txt || fail "garbage checkpoint: '$(cat bad.txt)'"
run --field 2,2,2 --depth 1 --quiet --checkpoint trunc > /dev/null
head -c 60 trunc/paperball-enum-book-2-2-2.ckpt > trunc/x && mv trunc/x trunc/paperball-enum-book-2-2-2.ckpt
run --field 2,2,2 --checkpoint trunc --resume --quiet > /dev/null 2> /dev/null
[ $? -eq 2 ] || fail "truncated checkpoint: expected exit 2"
run --field 2,2,2 --checkpoint nothing-here --resume --quiet > /dev/null 2> /dev/null
[ $? -eq 2 ] || fail "missing checkpoint: expected exit 2"
run --field 2,2,2 --csv --json > /dev/null 2> /dev/null
[ $? -eq 2 ] || fail "--csv --json: expected exit 2"
run --field 2,2,2 --memory lots > /dev/null 2> /dev/null
[ $? -eq 2 ] || fail "--memory lots: expected exit 2"
run --help | grep -q 'usage: paperball enumerate' || fail "--help"

# Memory the system refuses (no --memory budget; 40-80 MB of address
# space, which (2;4;6) outgrows after a few depths): exit 4 and one line,
# whether it runs out in a depth or while writing the checkpoint; no crash.
for lim in 40000 60000 80000; do
    msg=$( (ulimit -v $lim; run --field 2,4,6 --time-limit 30) 2>&1 > /dev/null)
    check "memory refused ($lim KB): exit 4" 4 $?
    [ "$(printf '%s\n' "$msg" | grep -c '^paperball:')" = 1 ] || fail "memory refused ($lim KB): not one closing line"
done

cd .. && rm -rf "$W"
finish
