#!/bin/bash
# slurm.sh - the Slurm job scripts (scripts/slurm/*.sbatch): `bash -n`
# passes, and in a fake-Slurm mode (SLURM_* variables set, srun replaced by
# `mpirun --oversubscribe`, scontrol by a stub that records its arguments)
# each job, sent SIGTERM half-way as Slurm does at the wall time, saves,
# asks to be requeued, and its second start resumes and gives the answer
# of an uninterrupted run without the scripts (the reference).  The fake
# runs are skipped (status 77) without mpirun or an MPI build.
set -u
. "$(dirname "$0")/lib/check.sh"
src=$(cd "$(dirname "$0")/../.." && pwd)
for s in solve enumerate; do
  bash -n "$src/scripts/slurm/$s.sbatch" && echo "ok   bash -n $s.sbatch" || fail "bash -n $s.sbatch"
  grep -q '^#SBATCH --time=' "$src/scripts/slurm/$s.sbatch" && grep -q '^#SBATCH --ntasks=' "$src/scripts/slurm/$s.sbatch" \
    && grep -q '^#SBATCH --cpus-per-task=' "$src/scripts/slurm/$s.sbatch" && grep -q '^#SBATCH --mem' "$src/scripts/slurm/$s.sbatch" \
    && echo "ok   $s.sbatch asks for time, tasks, cores, memory" || fail "$s.sbatch: #SBATCH lines missing"
done
"$pb" enumerate --field 2,2,2 --depth 1 --quiet --mpi > /dev/null 2>&1 || skip "this paperball was built without MPI"
command -v mpirun > /dev/null || skip "no mpirun"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
W=$(mktemp -d slurm.XXXXXX)
cd "$W" || exit 1
mkdir bin
printf '#!/bin/sh\necho "$@" >> "%s/scontrol.log"\n' "$PWD" > bin/scontrol
chmod +x bin/scontrol
export PATH="$PWD/bin:$PATH" PAPERBALL="$pb" SLURM_JOB_ID=4242 SLURM_CPUS_PER_TASK=1
values() { python3 -c "import json,sys; d=json.load(sys.stdin); print(' '.join([d['value']] + [t['value'] for t in d['first_turns']]))"; }

# solve: one task, a field whose first-turn classes take a few seconds
# (about 5 CPU s on the machine of results/); SIGTERM goes as soon as the
# first periodic save is on disk, so a faster machine still stops it early.
S="--rules hockey --setback 1 --dead-end draw --field 2,4,12 --first-turns --json --quiet"
ref=$("$pb" solve $S | values)
export SLURM_NTASKS=1 SRUN="mpirun --oversubscribe -n 1" PAPERBALL_SAVE_EVERY=1
bash "$src/scripts/slurm/solve.sbatch" $S > first.json 2> first.err &
job=$!
for _ in $(seq 300); do [ -s paperball-solve-4242.pbs ] && break; sleep 0.1; done
kill -TERM $job
wait $job
st=$?
# paperball exits 3; srun passes that on, mpirun reports 1.
[ $st -ne 0 ] && echo "ok   solve job stopped: status $st" || fail "solve job: status 0 after SIGTERM"
# (mpirun, standing in for srun, sometimes ends its process before the
# forwarded SIGTERM is handled: then the periodic save is what resumes.)
if grep -q "stopped by SIGTERM" first.err; then echo "ok   solve job: paperball stopped by SIGTERM and saved"
else echo "note: mpirun ended paperball before it reported SIGTERM; the periodic save is checked below"; fi
contains "solve job: requeued" "requeue 4242" "$(cat scontrol.log 2>/dev/null)"
[ -s paperball-solve-4242.pbs ] && echo "ok   solve job: checkpoint saved" || fail "solve job: no checkpoint"
rm -f scontrol.log
SLURM_RESTART_COUNT=1 bash "$src/scripts/slurm/solve.sbatch" $S > second.json 2> second.err
check "solve job, second start: status 0" 0 $?
contains "solve job, second start: resumed" "(resumed)" "$(cat second.err)"
check "solve job = uninterrupted solve" "$ref" "$(values < second.json)"
[ ! -e scontrol.log ] && echo "ok   a finished job is not requeued" || fail "a finished job was requeued"

# enumerate: three tasks.
F="--rules hockey --field 2,4,4 --setback 0 --depth 6"
"$pb" enumerate $F --csv --quiet --threads 1 > one.csv
export SLURM_NTASKS=3 SRUN="mpirun --oversubscribe -n 3"
bash "$src/scripts/slurm/enumerate.sbatch" $F --csv > first.csv 2> first.err &
job=$!
for _ in $(seq 600); do grep -q "depth 5 done" first.err && break; sleep 0.1; done
kill -TERM $job
wait $job
st=$?
[ $st -ne 0 ] && echo "ok   enumerate job stopped: status $st" || echo "note: the job ended before SIGTERM"
[ $st -ne 0 ] && contains "enumerate job: requeued" "requeue 4242" "$(cat scontrol.log 2>/dev/null)"
SLURM_RESTART_COUNT=1 bash "$src/scripts/slurm/enumerate.sbatch" $F --csv --quiet > second.csv 2> second.err
check "enumerate job, second start: status 0" 0 $?
[ $st -ne 0 ] && contains "enumerate job, second start: resumed" "(resumed)" "$(cat second.err)"
cmp -s one.csv second.csv && echo "ok   enumerate job = one process, byte for byte" || fail "enumerate job differs from one process"
cd .. && rm -rf "$W"
finish
