#!/usr/bin/env bash
# Measures the counting commands side by side with an earlier program and
# writes results/bench_enumerate.md: perft (2;8;10) depth 7 on one thread
# (CPU time), perft depth 8 on 1 and 2 threads (three runs each, in turn:
# medians), enumerate (2;4;4) to depth 5
# on 1 and 2 threads (both programs), enumerate (2;2;4) whole games on one
# thread (both programs: the turn walk's speed), enumerate (2;4;4) to depth
# 6 on 1 and 2 threads (three runs each, in turn: the 2-thread speed-up), book
# (2;4;4) whole games with a limit of ten minutes on 2 threads (how far they
# get), and `paperball bench --enumerate --threads 2`.
# Usage: scripts/bench_enumerate.sh [BUILD_DIR] [BASE]
#   BASE: the git revision to compare with (default: the environment's
#   PB_BENCH_BASE, else HEAD~); it is built in a temporary worktree.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
pb_program "${1:-}"
base=${2:-${PB_BENCH_BASE:-HEAD~}}
base_short=$(git -C "$root" rev-parse --short "$base")
out=$root/results/bench_enumerate.md
work=$(mktemp -d -t pb-bench-enum.XXXXXX)
trap 'git -C "$root" worktree remove --force "$work/base" > /dev/null 2>&1 || true; rm -rf "$work"' EXIT
git -C "$root" worktree add --detach "$work/base" "$base" > /dev/null 2>&1
cmake -S "$work/base" -B "$work/base/build" -DCMAKE_BUILD_TYPE=Release > /dev/null
cmake --build "$work/base/build" -j2 --target paperball > /dev/null
old=$work/base/build/paperball
load0=$(cut -d' ' -f1-3 /proc/loadavg)

# measure NAME PROGRAM ARGS...: one run; prints "user+sys wall" seconds and
# keeps the output in $work/NAME.out.
measure() {
  local name=$1
  shift
  /usr/bin/time -f "%U %S %e" -o "$work/$name.time" "$@" > "$work/$name.out" 2> /dev/null || true
  # The last line: a run stopped with a status adds a line before it.
  tail -n 1 "$work/$name.time" | awk '{ printf "%.2f %.2f", $1 + $2, $3 }'
}
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "-" }'; }
last_seq() { awk '$1 ~ /^[0-9]+$/ { s = $2 } END { print s }' "$work/$1.out"; }

# The 1-thread against 2-thread rows: RUNS runs of each, in turn (1, 2,
# 1, 2, ...), so that a change of load falls on both; medians.
RUNS=3
# alternate NAME PROGRAM ARGS...: sets W1 W2 (median wall seconds of 1 and
# 2 threads), C1 C2 (median CPU seconds), RUNS1 RUNS2 (the wall seconds of
# every run); the outputs are kept as NAME_T_K.out.
alternate() {
  local name=$1 k t c w
  shift
  local -a w1=() w2=() c1=() c2=()
  for k in $(seq "$RUNS"); do
    for t in 1 2; do
      read -r c w <<< "$(measure "${name}_${t}_$k" "$@" --threads "$t")"
      if [ "$t" = 1 ]; then w1+=("$w") c1+=("$c"); else w2+=("$w") c2+=("$c"); fi
    done
  done
  W1=$(pb_median "${w1[@]}") W2=$(pb_median "${w2[@]}") C1=$(pb_median "${c1[@]}") C2=$(pb_median "${c2[@]}")
  RUNS1=$(IFS=,; echo "${w1[*]}" | sed 's/,/, /g') RUNS2=$(IFS=,; echo "${w2[*]}" | sed 's/,/, /g')
}

rows=()
row() { rows+=("$(printf '| %s | %s | %s | %s | %s |' "$@")"); }

read -r c_old w_old <<< "$(measure p7old "$old" perft --field 2,8,10 --depth 7)"
read -r c_new w_new <<< "$(measure p7new "$pb" perft --field 2,8,10 --depth 7 --threads 1)"
[ "$(last_seq p7old)" = "$(last_seq p7new)" ] || { echo "bench_enumerate.sh: perft(7) differs" >&2; exit 1; }
row "perft (2;8;10) depth 7, 1 thread: CPU s" "$c_old" "$c_new" "$(ratio "$c_new" "$c_old")" "perft(7) = $(last_seq p7new)"
read -r c_p2 w_p2 <<< "$(measure p7two "$pb" perft --field 2,8,10 --depth 7 --threads 2)"
row "perft (2;8;10) depth 7: wall s, 1 thread vs 2 (new)" "$w_new" "$w_p2" "$(ratio "$w_p2" "$w_new")" \
  "CPU $c_new vs $c_p2 s"
alternate p8 "$pb" perft --field 2,8,10 --depth 8
for f in "$work"/p8_*.out; do
  [ "$(last_seq p8_2_1)" = "$(last_seq "$(basename "$f" .out)")" ] ||
    { echo "bench_enumerate.sh: perft(8) differs between runs or thread counts" >&2; exit 1; }
done
row "perft (2;8;10) depth 8, 2 threads: wall s (median of $RUNS)" "-" "$W2" "-" "CPU $C2 s; perft(8) = $(last_seq p8_2_1)"
row "perft (2;8;10) depth 8: wall s, 1 thread vs 2 (new; medians of $RUNS runs in turn)" "$W1" "$W2" "$(ratio "$W2" "$W1")" \
  "speed-up $(ratio "$W1" "$W2"); CPU $C1 vs $C2 s; wall runs: $RUNS1 (1 thread), $RUNS2 (2)"
for t in 1 2; do
  read -r c w <<< "$(measure e_old$t "$old" enumerate --field 2,4,4 --depth 5 --threads $t --quiet --checkpoint "$work/ck")"
  eval "ce_old$t=$c we_old$t=$w"
  read -r c w <<< "$(measure e_new$t "$pb" enumerate --field 2,4,4 --depth 5 --threads $t --quiet --checkpoint "$work/ck")"
  eval "ce_new$t=$c we_new$t=$w"
done
cmp -s "$work/e_new1.out" "$work/e_new2.out" || { echo "bench_enumerate.sh: 1 and 2 threads differ" >&2; exit 1; }
cmp -s "$work/e_old1.out" "$work/e_new1.out" || { echo "bench_enumerate.sh: old and new enumerate differ" >&2; exit 1; }
row "enumerate (2;4;4) depth 5, 1 thread: CPU s" "$ce_old1" "$ce_new1" "$(ratio "$ce_new1" "$ce_old1")" "wall $we_old1 vs $we_new1 s"
row "enumerate (2;4;4) depth 5, 2 threads: CPU s" "$ce_old2" "$ce_new2" "$(ratio "$ce_new2" "$ce_old2")" "wall $we_old2 vs $we_new2 s"
row "enumerate 2-thread speed-up (wall 1 / wall 2)" "$(ratio "$we_old1" "$we_old2")" "$(ratio "$we_new1" "$we_new2")" "-" \
  "CPU 2 threads / CPU 1 thread: $(ratio "$ce_old2" "$ce_old1") old, $(ratio "$ce_new2" "$ce_new1") new"
read -r c_g_old w_g_old <<< "$(measure g_old "$old" enumerate --field 2,2,4 --threads 1 --quiet)"
read -r c_g_new w_g_new <<< "$(measure g_new "$pb" enumerate --field 2,2,4 --threads 1 --quiet)"
cmp -s "$work/g_old.out" "$work/g_new.out" || { echo "bench_enumerate.sh: old and new (2;2;4) games differ" >&2; exit 1; }
row "enumerate (2;2;4) whole games, 1 thread: CPU s" "$c_g_old" "$c_g_new" "$(ratio "$c_g_new" "$c_g_old")" \
  "wall $w_g_old vs $w_g_new s (the turn walk's speed)"
alternate e6 "$pb" enumerate --field 2,4,4 --depth 6 --quiet
for f in "$work"/e6_*.out; do
  cmp -s "$work/e6_1_1.out" "$f" || { echo "bench_enumerate.sh: depth 6 differs between runs or thread counts" >&2; exit 1; }
done
row "enumerate (2;4;4) depth 6 (new): wall s, 1 thread vs 2 (medians of $RUNS runs in turn)" "$W1" "$W2" "$(ratio "$W2" "$W1")" \
  "speed-up $(ratio "$W1" "$W2"); CPU $C1 vs $C2 s; wall runs: $RUNS1 (1 thread), $RUNS2 (2)"
# (2;4;4) whole games: ten minutes on 2 threads, and the depths finished in
# them (the run stops at the limit with status 3; its rows say how far it got).
read -r c_w w_w <<< "$(measure w244 "$pb" enumerate --field 2,4,4 --threads 2 --time-limit 600 --memory 16G --quiet --checkpoint "$work/ck")"
w_depth=$(awk '$1 ~ /^[0-9]+$/ { d = $1 } END { print d }' "$work/w244.out")
w_rate=$(awk -v c="$c_w" '$1 ~ /^[0-9]+$/ { n += $2 } END { if (c > 0) printf "%.0f", n / c }' "$work/w244.out")
row "enumerate (2;4;4) whole games, 2 threads, 600 s limit: wall s" "-" "$w_w" "-" \
  "CPU $c_w s; depths 0..$w_depth finished, $w_rate positions found per CPU s"
load1=$(cut -d' ' -f1-3 /proc/loadavg)
table=$("$pb" bench --enumerate --threads 2)
{
  echo "# Counting speed"
  echo
  echo "Generated by \`scripts/bench_enumerate.sh\`; do not edit by hand."
  echo
  echo "- commit: $commit, compared with $base_short (built in a temporary worktree)"
  echo "- machine: $machine"
  echo "- date: $(date -u '+%Y-%m-%d %H:%M UTC'); load average before: $load0, after the side-by-side runs: $load1"
  echo
  echo "Side by side, one run each, but $RUNS of each thread count, in turn, where 1"
  echo "thread is set against 2 (medians; \`/usr/bin/time\`: CPU = user + system seconds;"
  echo "wall = elapsed).  On a machine shared with other jobs the wall times and the"
  echo "speed-ups depend on the load (above); the CPU times much less."
  echo "*perft* counts depth-first over each turn's distinct outcomes (\`pb_perft_count\`),"
  echo "the earlier program stored every position of a depth; *enumerate* expands each"
  echo "position by its turn's distinct outcomes with their route counts.  The counts of"
  echo "both programs were checked equal."
  echo
  echo "Rows marked *(new)* compare two runs of the new program (first column: 1"
  echo "thread, second: 2 threads)."
  echo
  echo "| measure | $base_short | $commit | new / old | notes |"
  echo "|---|---:|---:|---:|---|"
  printf '%s\n' "${rows[@]}"
  echo
  echo "\`paperball bench --enumerate --threads 2\` ($commit): distinct positions enumerated"
  echo "per wall-clock second on fixed fields."
  echo
  echo '```'
  echo "$table"
  echo '```'
} | pb_write "$out"
