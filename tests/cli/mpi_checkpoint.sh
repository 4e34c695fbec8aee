#!/bin/bash
# mpi_checkpoint.sh - checkpoints of `enumerate --mpi`: one process of
# `mpirun -n 3` killed with kill -9 half-way, then the run resumed with 3
# processes, gives output identical byte for byte to one process without
# MPI or checkpoints (the reference); so does a run stopped by SIGTERM
# (status 3) and resumed; a resume with another number of processes, or
# with a damaged file, is refused with one line and status 2.  Skipped
# (status 77) when this paperball was built without MPI or mpirun is
# missing.
set -u
. "$(dirname "$0")/lib/check.sh"
P=$pb
"$P" enumerate --field 2,2,2 --depth 1 --quiet --mpi > /dev/null 2>&1 || skip "this paperball was built without MPI"
command -v mpirun > /dev/null || skip "no mpirun"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
W=$(mktemp -d mpick.XXXXXX)
cd "$W" || exit 1
F="--rules hockey --field 2,4,4 --setback 0 --depth 6"   # depth 6 is most of the run
"$P" enumerate $F --csv --quiet --threads 1 > one.csv || fail "reference run"

# Waits (at most 60 s) until rank 0's progress says depth $2 is done.
wait_depth() {
  for _ in $(seq 600); do
    grep -q "depth $2 done" "$1" 2>/dev/null && return 0
    sleep 0.1
  done
  return 1
}

# kill -9 on rank 1 once depth 5 is saved; every process then stops.
mpirun -n 3 "$P" enumerate --mpi $F --csv --threads 1 --checkpoint ck > part.csv 2> part.err &
run=$!
wait_depth part.err 5 || fail "depth 5 never done"
victim=$(pgrep -f "paperball enumerate --mpi .* --checkpoint ck$" | sed -n 2p)
if [ -n "$victim" ]; then kill -KILL "$victim"; echo "ok   killed one process ($victim)"; else echo "note: the run ended before the kill"; fi
wait $run 2>/dev/null
ls ck/*.ckpt.1-of-3.* > /dev/null 2>&1 && echo "ok   per-process files" || fail "no per-process checkpoint files"

# Another number of processes: refused, the files kept.
e=$(mpirun -n 2 "$P" enumerate --mpi $F --csv --threads 1 --checkpoint ck --resume 2>&1 >/dev/null); st=$?
check "resume with 2 of 3 processes: status" 2 $st
contains "resume with 2 of 3: named" "no depth is saved by all 2 processes" "$e"
"$P" enumerate $F --csv --threads 1 --checkpoint ck --resume > /dev/null 2>&1
check "resume of per-process files without --mpi: status" 2 $?

mpirun -n 3 "$P" enumerate --mpi $F --csv --quiet --threads 1 --checkpoint ck --resume > resumed.csv 2> resumed.err
check "resume after kill -9: status" 0 $?
cmp -s one.csv resumed.csv && echo "ok   resume after kill -9 = one process, byte for byte" \
  || fail "resume after kill -9 differs from one process: $(diff one.csv resumed.csv | head -5)"

# SIGTERM to mpirun (what Slurm sends): status 3, then resumed.
mpirun -n 3 "$P" enumerate --mpi $F --csv --threads 1 --checkpoint ct > part.csv 2> term.err &
run=$!
wait_depth term.err 5 || fail "depth 5 never done (SIGTERM run)"
kill -TERM $run
wait $run
st=$?
[ $st -ne 0 ] && echo "ok   SIGTERM: status $st" || echo "note: the run ended before SIGTERM"
mpirun -n 3 "$P" enumerate --mpi $F --csv --quiet --threads 1 --checkpoint ct --resume > resumed2.csv 2> /dev/null
check "resume after SIGTERM: status" 0 $?
cmp -s one.csv resumed2.csv && echo "ok   resume after SIGTERM = one process, byte for byte" \
  || fail "resume after SIGTERM differs from one process"

# A damaged share: refused by every process, one line, status 2.
"$P" enumerate $F --csv --quiet --threads 1 --depth 3 > /dev/null
mpirun -n 3 "$P" enumerate --mpi --rules hockey --field 2,4,4 --setback 0 --depth 3 --csv --quiet --threads 1 \
  --checkpoint cd > /dev/null 2>&1
f=$(ls cd/*.1-of-3.1 | head -1)
python3 -c "import sys; b=bytearray(open(sys.argv[1],'rb').read()); b[len(b)//2]^=1; open(sys.argv[1],'wb').write(b)" "$f"
e=$(mpirun -n 3 "$P" enumerate --mpi $F --csv --quiet --threads 1 --checkpoint cd --resume 2>&1 >/dev/null); st=$?
check "damaged share: status" 2 $st
contains "damaged share: named" "bad checkpoint $f: process 1 could not read it" "$e"
check "damaged share: one line" 1 "$(printf '%s\n' "$e" | grep -c paperball:)"
finish
