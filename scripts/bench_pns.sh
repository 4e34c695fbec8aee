#!/usr/bin/env bash
# Proof-number search against alpha-beta, side by side: `paperball solve
# --algo pn` and `--algo ab` on the same positions, one after the other,
# each a process of its own (CPU seconds and peak memory from
# /usr/bin/time); writes results/bench_pns.md.
# Usage: scripts/bench_pns.sh [BUILD_DIR]   (default build/)
#   PNS_BENCH_LIMIT  seconds per run before it is stopped (default 150)
set -euo pipefail
. "$(dirname "$0")/lib.sh"
pb_program "${1:-}"
out=$root/results/bench_pns.md
limit=${PNS_BENCH_LIMIT:-150}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# A book (2;8;10) game played to its last turns by random play; the
# endgames below are this record cut 0, 4, 8 and 12 turns before its end.
endgame="e7-d8 d8-d7 d7-e6 e6-e7-d6 d6-d7-e7-f8 f8-e9 e9-d10 d10-e10 e10-f9 f9-f8-e8 e8-f9-e9-e8-d8-e9-d9 d9-e10-e9-f10 f10-e10-f11 f11-g12-g11 g11-f10-f11-g11-f12-f11-e11 e11-d12-c11 c11-d10-d9-e8-d7-c7 c7-d8-c8 c8-c7-c6 c6-d6-e6-f6 f6-e5 e5-e6-d5 d5-e5-f5 f5-f6-e7-e8-f7 f7-f6-g6 g6-f5-e6-f7-f8-g8 g8-f7-g6-g7 g7-g8-f9-f10-e11-f12-e12 e12-e11-d11 d11-e10-e11-d10-d11-e12-d12-d11-c12-c11-b12-a11-b10 b10-b9 b9-a10-b10-a9-b9-c8-d7-c6-d5-d6-e5-e4 e4-f5-g4 g4-g3 g3-f4 f4-e4-d3 d3-c2-b3 b3-b2-a3-b3-a4-b4 b4-c3 c3-d2-d3-c4 c4-b3-b4-c4-d5-e4-f3 f3-f2-g3-g2-f3-g4-f4-f3-g3-h4 h4-i3-h2-h3 h3-i4-h4-i5-h5 h5-g4-h3-h4-h5-g5 g5-f5-f4-g5-g4-h4-g5-g6-h5-h6 h6-i7-h7 h7-g7-f6-g5-h6-h7-i6-h6-g7-f8-g9 g9-g10 g10-h9"
record_cut() { echo "$endgame" | awk -v k="$1" '{ for (i = 1; i <= NF - k; i++) printf "%s%s", (i > 1 ? " " : ""), $i }'; }

# label | solve options | record (empty: the start)
positions=(
  "book (2;4;4) start|--field 2;4;4|"
  "book (2;4;6) start|--field 2;4;6|"
  "book (2;6;4) start|--field 2;6;4|"
  "hockey (2;4;6) S=0, dead end draws|--rules hockey --field 2;4;6 --setback 0 --dead-end draw|"
  "hockey (2;4;6) S=1, dead end loses|--rules hockey --field 2;4;6 --setback 1 --dead-end loss|"
  "hockey (2;6;6) S=1, dead end draws|--rules hockey --field 2;6;6 --setback 1 --dead-end draw|"
  "triple (2;4;6) start|--rules triple --field 2;4;6|"
  "triple (2;6;6) start|--rules triple --field 2;6;6|"
  "triple (2;6;8) start|--rules triple --field 2;6;8|"
  "book (2;8;10) endgame, end of record|--field 2;8;10|$(record_cut 0)"
  "book (2;8;10) endgame, 4 turns back|--field 2;8;10|$(record_cut 4)"
  "book (2;8;10) endgame, 8 turns back|--field 2;8;10|$(record_cut 8)"
  "book (2;8;10) endgame, 12 turns back|--field 2;8;10|$(record_cut 12)"
)

# run ALGO OPTIONS RECORD: one solve; prints "value nodes cpu_s peak_MiB"
# (nodes: expansions for pn, single steps for ab, as solve --json counts them).
run() {
  local algo=$1 opts=$2 record=$3 args
  read -r -a args <<< "$opts"
  [ -n "$record" ] && args+=(--record "$record")
  /usr/bin/time -f '%U %S %M' -o "$tmp/time" "$pb" solve "${args[@]}" --algo "$algo" --json --quiet \
    --time-limit "$limit" > "$tmp/json" 2> "$tmp/err" || true
  local value nodes
  value=$(jq -r '.value' "$tmp/json" 2>/dev/null || echo error)
  nodes=$(jq -r '.nodes // 0' "$tmp/json" 2>/dev/null || echo 0)
  read -r u s m < <(tail -1 "$tmp/time")
  echo "$value $nodes $(echo "$u + $s" | bc -l) $(echo "$m / 1024" | bc)"
}


load0=$(cut -d' ' -f1-3 /proc/loadavg)
t0=$(date +%s)
rows=""
status=0
for entry in "${positions[@]}"; do
  IFS='|' read -r label opts record <<< "$entry"
  pn_cpu=(); ab_cpu=()
  for rep in 1 2 3; do
    read -r pv pnodes pc pm < <(run pn "$opts" "$record")
    read -r av asteps ac am < <(run ab "$opts" "$record")
    pn_cpu+=("$pc"); ab_cpu+=("$ac")
    # Repeat only the quick ones: the median of three damps a noisy machine.
    if [ "$(echo "$pc + $ac > 5" | bc -l)" = 1 ]; then break; fi
  done
  pc=$(pb_median "${pn_cpu[@]}"); ac=$(pb_median "${ab_cpu[@]}")
  agree=yes
  if [ "$pv" != unknown ] && [ "$av" != unknown ] && [ "$pv" != "$av" ]; then agree=NO; status=1; fi
  ratio=-
  # A ratio of times under 0.05 s would measure start-up, not search.
  if [ "$pv" != unknown ] && [ "$av" != unknown ] && [ "$(echo "$pc + $ac >= 0.05" | bc -l)" = 1 ]; then
    ratio=$(printf %.1f "$(echo "$ac / ($pc + 0.005)" | bc -l)")
  fi
  rows+="| $label | $pv | $av | $agree | $pnodes | $(printf %.2f "$pc") | $pm | $asteps | $(printf %.2f "$ac") | $am | $ratio | ${#pn_cpu[@]} |"$'\n'
  echo "$label: pn $pv ${pc}s, ab $av ${ac}s" >&2
done
{
  pb_head "Proof-number search against alpha-beta" scripts/bench_pns.sh
  echo "- command: \`paperball solve OPTIONS --algo pn|ab --json --quiet --time-limit $limit\`, each under \`/usr/bin/time\`"
  pb_timed_run "$t0" "$load0"
  echo
  echo "Each position is solved by \`--algo pn\` (proof-number search, docs/solver.md:"
  echo "the value alone, one thread) and then by \`--algo ab\`"
  echo "(alpha-beta as \`solve\` runs it at this commit, one thread); both take the same"
  echo "default table size (1 MiB for <= 48 reachable free segments, 8 MiB up to 96, else 64 MiB),"
  echo "each a process of its own. *CPU s* is user + system time of the process,"
  echo "the median of three runs when both took under 5 s together (*runs*), else of"
  echo "one; *peak MiB* its maximum resident memory. *pn expanded* counts the nodes"
  echo "the proof-number search expanded, *ab steps* the single steps (plies in triple)"
  echo "alpha-beta searched. *ab/pn* is the ratio of the CPU seconds. A value \"unknown\""
  echo "means the run met the time limit. The run fails if the two values differ."
  echo
  echo "| position | pn value | ab value | agree | pn expanded | pn CPU s | pn peak MiB | ab steps | ab CPU s | ab peak MiB | ab/pn | runs |"
  echo "|---|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|"
  printf '%s' "$rows"
} > "$out"
echo "wrote $out" >&2
exit $status
