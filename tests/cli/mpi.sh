#!/bin/bash
# mpi.sh - the cluster mode (--mpi, docs/cluster.md): `mpirun -n K paperball
# enumerate --mpi` gives output identical byte for byte to one process, for
# K = 1 and 3, on fields of each rule set, also with every count kept in GMP;
# `solve --mpi` gives the values, best turn and line of one process; the
# refusals of --mpi.  Skipped (status 77, which ctest reports as skipped)
# only when this paperball was built without MPI or mpirun is missing.
# Usage: bash mpi.sh /path/to/paperball   (run in a scratch directory)
set -u
. "$(dirname "$0")/lib/check.sh"
P=$pb

W=$(mktemp -d mpi-cli.XXXXXX)
cd "$W" || exit 1

# A build without MPI refuses --mpi with one line and status 2.
"$P" enumerate --field 2,2,2 --depth 1 --quiet --mpi > out.txt 2> err.txt
rc=$?
if [ $rc -ne 0 ]; then
    [ $rc -eq 2 ] && grep -q 'built without MPI' err.txt && [ "$(wc -l < err.txt)" -eq 1 ] \
        || { echo "FAIL: --mpi without MPI: status $rc, '$(cat err.txt)'"; exit 1; }
    skip "this paperball was built without MPI"
fi
if ! command -v mpirun > /dev/null; then
    skip "no mpirun"
fi
# Open MPI refuses root without these; --oversubscribe lets 3 processes
# share the cores of a small machine.
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
mpi() { local k=$1; shift; mpirun -n "$k" --oversubscribe "$P" "$@"; }

# Enumerations: one process, then 1 and 3 MPI processes, compared byte for byte.
check() {
    local fmt=$1; shift
    "$P" enumerate "$@" $fmt --quiet --threads 1 > one.out || { fail "one process: $*"; return; }
    [ -s one.out ] || { fail "one process: no output: $*"; return; }
    for k in 1 3; do
        mpi $k enumerate --mpi "$@" $fmt --quiet --threads 1 > mpi$k.out 2> mpi$k.err \
            || { fail "mpirun -n $k: status $?: $* ($(head -3 mpi$k.err))"; continue; }
        cmp -s one.out mpi$k.out || fail "mpirun -n $k differs from one process: $* $fmt"
    done
}
check --json --field 2,2,2
check --csv --field 2,4,4 --depth 4
check "" --field 2,4,4 --depth 3 --record c4-d5
check --json --rules hockey --field 2,2,4 --setback 0
check --csv --rules hockey --field 2,2,4 --setback 0 --dead-end loss
check --json --rules triple --field 2,4,6 --depth 3
# Every count in GMP (test knob): the big-integer exchange and sums.
PAPERBALL_TEST_SMALL_MAX=1 check --json --field 2,4,4 --depth 4
python3 - one.out <<'PY' 2> /dev/null || fail "JSON of (2;4;4): sequences do not add up"
import json, sys
j = json.load(open(sys.argv[1]))
assert j["depths"][4]["positions"] > 1000 and j["depths"][4]["sequences"] > j["depths"][4]["positions"]
PY

# Progress: from rank 0 only.
mpi 3 enumerate --mpi --field 2,4,4 --depth 3 --threads 1 > /dev/null 2> prog.err || fail "progress run"
[ "$(grep -c '^enumerate: depth 3 done' prog.err)" -eq 1 ] || fail "progress not from one process: $(cat prog.err)"
grep -q 'on 3 MPI processes' prog.err || fail "no 'on 3 MPI processes' in the last progress line"

# The memory budget is per process; a stop names the last finished depth, on every process.
mpi 3 enumerate --mpi --field 2,4,4 --depth 5 --memory 1M --quiet --threads 1 > /dev/null 2> mem.err
rc=$?
[ $rc -eq 4 ] || fail "--memory stop under MPI: status $rc"
grep -q 'the last finished depth is 3' mem.err || fail "--memory stop: $(grep paperball: mem.err)"
[ "$(grep -c '^paperball:' mem.err)" -eq 1 ] || fail "--memory stop: not one line"

# Solve: the same value, first-turn values, best turn and line for 1, 2
# and 3 processes as one process (nodes, times and tables may differ), with
# jobs so small that the top graph must grow (--job-nodes) and with two
# threads per worker.
same_solve() {
    # the lines from "field" to the line of play, without node counts and times
    grep -vE '^(nodes|table|peak memory|mpi|search) |^  rank ' "$1" | sed -E 's/, [0-9]+ nodes, [0-9.]+ s$//'
}
check_solve() {
    "$P" solve "$@" --algo ab --quiet > one.out || { fail "solve, one process: $*"; return; }
    grep -qE '^value +(win|draw|loss) ' one.out || { fail "solve, one process: no value: $*"; return; }
    same_solve one.out > one.cut
    for k in 1 2 3; do
        mpi $k solve --mpi "$@" --quiet --hash 4M --job-nodes 3000 --threads $(( k == 2 ? 2 : 1 )) > mpi$k.out 2> mpi$k.err \
            || { fail "solve, mpirun -n $k: status $?: $* ($(head -3 mpi$k.err))"; continue; }
        grep -q "^mpi  *$k processes" mpi$k.out || fail "solve, mpirun -n $k: does not say it ran on $k processes"
        same_solve mpi$k.out > mpi$k.cut
        cmp -s one.cut mpi$k.cut || { fail "solve, mpirun -n $k differs from one process: $*"; diff one.cut mpi$k.cut | head -5; }
    done
}
check_solve --field 2,4,4
check_solve --field 2,4,4 --first-turns
# The counts: jobs were split (out of budget), every process is listed, and
# rank 0 reports its CPU per job.
grep -qE '^mpi  +3 processes, job-level search .* [1-9][0-9]* out of budget' mpi3.out || fail "no split jobs: $(grep ^mpi mpi3.out)"
[ "$(grep -c '^  rank ' mpi3.out)" -eq 3 ] || fail "not one line per process"
check_solve --field 2,4,4 --record c4-d5
check_solve --rules hockey --field 2,2,4 --setback 0 --first-turns
check_solve --rules hockey --field 2,4,4 --setback 1 --first-turns
check_solve --rules triple --field 2,4,6
check_solve --rules triple --field 2,4,6 --first-turns
# First turns that are the opponent's kick chains after which the same player
# is to move again: their values are not negated.
check_solve --rules triple --field 2,4,6 --record '1. c5-d6-c6-b7 2. b7-c8-c7-d7' --first-turns
# In JSON, one entry per process, adding up.
mpi 3 solve --mpi --field 2,4,4 --quiet --json --job-nodes 3000 > j3.json || fail "solve --mpi --json"
python3 - j3.json <<'PY' || fail "solve --mpi --json: counts"
import json, sys
j = json.load(open(sys.argv[1]))
m = j["mpi"]
assert j["mpi_processes"] == 3 and len(m["ranks"]) == 3 and m["out_of_budget"] > 0
assert m["jobs"] == sum(r["jobs"] for r in m["ranks"]) and m["ranks"][0]["jobs"] == 0
assert j["nodes"] == sum(r["nodes"] for r in m["ranks"])
PY
# --job-nodes: only with --mpi, and a count.
"$P" solve --field 2,2,2 --job-nodes 5 > /dev/null 2> e.txt; rc=$?
[ $rc -eq 2 ] && [ "$(wc -l < e.txt)" -eq 1 ] || fail "--job-nodes without --mpi: status $rc, '$(cat e.txt)'"

# Saved proofs under --mpi: a run stopped half-way (by its time limit, then
# by SIGTERM sent to the processes, as Slurm sends it) saves what rank 0's
# top proved; a rerun with --resume on another number of processes
# rebuilds the top from it and gives the values of one process.  The field
# takes some ten seconds on three processes of a 2-core machine, several
# times the limit and the time before SIGTERM, so that a fast machine still
# stops half-way (triple (2;6;6), two seconds, once finished first).
T="--rules triple --field 4,6,6 --first-turns"
"$P" solve $T --algo ab --quiet > ck1.out || fail "solve $T"
same_solve ck1.out > ck1.cut
rm -f ck.pbs
mpi 3 solve --mpi $T --checkpoint ck.pbs --job-nodes 20k --time-limit 1.5 > /dev/null 2> ck.err
rc=$?
[ $rc -eq 3 ] && grep -q 'what is proven is saved in ck.pbs' ck.err || fail "--mpi stopped half-way: status $rc, $(grep paperball: ck.err)"
# The half-way proofs read by --proofs (every process reads them, none
# saves): the values of one process.
mpi 3 solve --mpi $T --proofs ck.pbs --job-nodes 20k > pf.out 2> pf.err || fail "--mpi --proofs: status $?"
grep -qE 'read [1-9][0-9]* proven positions from ck.pbs' pf.err || fail "--mpi --proofs: $(grep -c read pf.err)"
same_solve pf.out > pf.cut
cmp -s ck1.cut pf.cut || { fail "--mpi --proofs differs from one process"; diff ck1.cut pf.cut | head -5; }
mpi 2 solve --mpi $T --checkpoint ck.pbs --resume --job-nodes 20k > ck2.out 2> ck2.err || fail "--mpi --resume: status $?"
grep -qE 'resumed from ck.pbs: [1-9][0-9]* proven positions' ck2.err || fail "--mpi --resume: $(grep resumed ck2.err)"
same_solve ck2.out > ck2.cut
cmp -s ck1.cut ck2.cut || { fail "--mpi --resume differs from one process"; diff ck1.cut ck2.cut | head -5; }
rm -f ck.pbs
mpi 3 solve --mpi $T --checkpoint ck.pbs --job-nodes 20k > /dev/null 2> term.err &
run=$!
sleep 2
# SIGTERM to the paperball processes themselves (as srun delivers it),
# found among the run's descendants: mpirun ends them at once if it is
# the one signalled.
descendants() { local c; for c in $(pgrep -P "$1"); do echo "$c"; descendants "$c"; done; }
kill -TERM $(descendants $run | while read -r c; do [ "$(cat /proc/$c/comm 2> /dev/null)" = paperball ] && echo "$c"; done) 2> /dev/null
wait $run
rc=$?
if [ $rc -eq 0 ]; then
    echo "note: the run ended before SIGTERM came; the stop is not checked"
else
    # (mpirun's own status is that of some process: 3, or 1 when it ended the others)
    grep -q 'stopped by SIGTERM' term.err && [ -s ck.pbs ] || fail "--mpi and SIGTERM: status $rc, $(grep paperball: term.err)"
    mpi 3 solve --mpi $T --checkpoint ck.pbs --resume > ck3.out 2> /dev/null || fail "--mpi --resume after SIGTERM"
    same_solve ck3.out > ck3.cut
    cmp -s ck1.cut ck3.cut || fail "--mpi --resume after SIGTERM differs from one process"
fi

# A checkpoint rank 0 could never save: every process stops at once with
# its status, 5, and the one line naming it (from rank 0).
mpi 3 solve --mpi $T --checkpoint no-such-dir/ck.pbs > nw.out 2> nw.err
rc=$?
[ $rc -eq 5 ] && [ ! -s nw.out ] && grep -q '^paperball: cannot write no-such-dir/ck.pbs: ' nw.err \
    || fail "--mpi, unwritable checkpoint: status $rc, '$(grep paperball: nw.err)'"

# --resume with no checkpoint saved by these processes: one line, status 2
# (checkpoints under --mpi: tests/cli/mpi_checkpoint.sh).
"$P" enumerate --mpi --field 2,2,2 --resume > /dev/null 2> e.txt
rc=$?
[ $rc -eq 2 ] && [ "$(wc -l < e.txt)" -eq 1 ] && grep -q 'no depth is saved by all 1 processes' e.txt \
    || fail "--mpi --resume: status $rc, '$(cat e.txt)'"

cd .. && rm -rf "$W"
finish
