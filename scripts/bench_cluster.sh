#!/usr/bin/env bash
# The job-level cluster solve measured: `paperball solve --first-turns` on
# one process (the reference) and `mpirun -n K paperball solve --mpi
# --first-turns` for K = 1 .. 4, one after the other, on one field; and the
# model for 64 .. 1024 processes with the numbers of these runs
# (docs/cluster.md explains it).  On a machine with fewer cores than
# processes the wall time says little: the table gives the extra nodes,
# the idle time of each process, the messages and rank 0's CPU per job.
# Writes results/bench_cluster.md.
# Usage: scripts/bench_cluster.sh [BUILD_DIR]   (default build/)
#   CLUSTER_BENCH_FIELD      the field (default 2;4;6, book)
#   CLUSTER_BENCH_JOB_NODES  the node budget of one job (default 2M)
#   CLUSTER_BENCH_RANKS      the process counts (default "1 2 3 4")
#   CLUSTER_BENCH_LIMIT      seconds per run before it is stopped (default 170)
set -euo pipefail
. "$(dirname "$0")/lib.sh"
pb_program "${1:-}"
out=$root/results/bench_cluster.md
field=${CLUSTER_BENCH_FIELD:-2;4;6}
budget=${CLUSTER_BENCH_JOB_NODES:-2M}
ranks=${CLUSTER_BENCH_RANKS:-1 2 3 4}
limit=${CLUSTER_BENCH_LIMIT:-170}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1

load0=$(cut -d' ' -f1-3 /proc/loadavg)
t0=$(date +%s)
# The reference searches as the workers do: alpha-beta (the solver's
# default is proof-number search, whose nodes are not comparable).
one="paperball solve --field '$field' --first-turns --algo ab --json --quiet --time-limit $limit"
/usr/bin/time -f '%e' -o "$tmp/t1" "$pb" solve --field "$field" --first-turns --algo ab --json --quiet \
  --time-limit "$limit" > "$tmp/one.json" || true
for k in $ranks; do
  /usr/bin/time -f '%e' -o "$tmp/t$k.mpi" mpirun -n "$k" --oversubscribe "$pb" solve --mpi --field "$field" \
    --first-turns --json --quiet --job-nodes "$budget" --time-limit "$limit" > "$tmp/mpi$k.json" || true
done
load1=$(cut -d' ' -f1-3 /proc/loadavg)
took=$(( $(date +%s) - t0 ))

python3 - "$tmp" "$ranks" > "$tmp/body.md" <<'PY'
import json, sys
tmp, ranks = sys.argv[1], [int(k) for k in sys.argv[2].split()]
def load(p):
    try: return json.load(open(p))
    except Exception: return None
def firsts(j): return [(t["route"], t["value"]) for t in j.get("first_turns", [])] if j else None
one = load(f"{tmp}/one.json")
if not one: sys.exit("the one-process reference did not finish")
t_one = float(open(f"{tmp}/t1").read().split()[-1])
print(f"Reference: one process, one thread, alpha-beta (as the workers search): value **{one['value']}**, {len(one['first_turns'])} first-turn classes, "
      f"{one['nodes']} nodes, {t_one:.1f} s wall.\n")
print("| processes | same value and first turns | wall s | nodes | extra nodes | jobs | out of budget | to a warm table "
      "| top positions | rank 0 CPU per job | mean job | messages | bytes | idle s per process |")
print("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
model = None
for k in ranks:
    j = load(f"{tmp}/mpi{k}.json")
    if not j or "mpi" not in j:
        print(f"| {k} | did not finish | | | | | | | | | | | | |"); continue
    m = j["mpi"]
    same = j["value"] == one["value"] and firsts(j) == firsts(one) and j["complete"]
    wall = float(open(f"{tmp}/t{k}.mpi").read().split()[-1])
    extra = (j["nodes"] - one["nodes"]) / one["nodes"] * 100
    jobs = m["jobs"] or 1
    busy = sum(r["busy_seconds"] for r in m["ranks"])
    msgs = sum(r["messages"] for r in m["ranks"]) // 2 if k > 1 else 0
    byts = sum(r["bytes"] for r in m["ranks"]) // 2 if k > 1 else 0
    idle = " / ".join(f"{r['idle_seconds']:.1f}" for r in m["ranks"])
    print(f"| {k} | {'yes' if same else '**NO**'} | {wall:.1f} | {j['nodes']} | {extra:+.1f}% | {m['jobs']} "
          f"| {m['out_of_budget']} | {m['warm']} | {m['top_positions']} | {1e3 * m['rank0_cpu_seconds'] / jobs:.3f} ms "
          f"| {busy / jobs:.3f} s | {msgs} | {byts} | {idle} |")
    if k == max(ranks): model = (k, j, m, busy / jobs, byts)
if model:
    k, j, m, tjob, byts = model
    c0 = m["rank0_cpu_seconds"] / max(m["jobs"], 1)
    learnt_per_job = m["learnt"] / max(m["jobs"], 1)
    msg_per_job = byts / max(m["jobs"], 1)
    print(f"\n## The model for 64 .. 1024 processes\n")
    print(f"From the {k}-process run: rank 0 spends c0 = {1e3 * c0:.3f} ms of CPU per job, a job takes "
          f"t = {tjob:.3f} s on a worker (busy time / jobs; the budget is a node count, so on an idle core t is "
          f"shorter), a job's messages carry {msg_per_job:.0f} bytes, and the graph learns {learnt_per_job:.1f} "
          f"proven positions per job, which go to every worker.\n")
    peak = j["peak_memory_bytes"] / 2**20
    print(f"| processes | rank 0 busy (K-1)·c0/t | proven positions sent per job by rank 0 | "
          f"memory, all processes ({peak:.0f} MiB each, the largest measured) |")
    print("|---|---|---|---|")
    for K in (64, 128, 256, 512, 1024):
        u = (K - 1) * c0 / tjob if tjob > 0 else float("inf")
        print(f"| {K} | {100 * u:.1f}% | {(K - 1) * learnt_per_job:.0f} | {K * peak / 1024:.0f} GiB |")
    print(f"\nRank 0 can feed about t/c0 = {tjob / c0 if c0 > 0 else float('inf'):.0f} workers at this job size "
          "before it becomes the bottleneck (docs/cluster.md, Scaling).")
PY

{
  echo "# The cluster solve: job-level search on $(echo $ranks | tr ' ' ',') processes"
  echo
  echo "Written by \`scripts/bench_cluster.sh\` (commit $commit, $(pb_now)); $took s in all."
  echo
  echo "- Machine: $machine; load average $load0 before, $load1 after."
  echo "- Field: book ($field), from the start, with the value of every first-turn class."
  echo "- Commands: \`$one\`, then \`mpirun -n K --oversubscribe paperball solve --mpi --field '$field'"
  echo "  --first-turns --json --quiet --job-nodes $budget --time-limit $limit\` for K = $ranks."
  echo "- With K processes, rank 0 holds the top of the search and K-1 workers solve jobs (K = 1: one"
  echo "  process does both). The processes share the cores with each other and with whatever else runs,"
  echo "  so the wall time is no speed-up; \"extra nodes\" is against the one-process reference,"
  echo "  \"messages\" and \"bytes\" count each message once, \"idle\" is time spent waiting for a message,"
  echo "  rank 0 first."
  echo
  cat "$tmp/body.md"
} | pb_write "$out"
