#!/usr/bin/env bash
# scripts/long_solve.sh - one long attempt to solve a field from its start,
# with what it reached when it stopped: the value if it fell, else the
# proof and disproof numbers at the root, nodes, table use and peak memory,
# and the root numbers along the way (sampled from the progress lines).
#
#   scripts/long_solve.sh [--rules R] [--field W,L,G] [--seconds S]
#                         [--memory SIZE] [--threads N] [--extra "OPTIONS"]
#                         [--part NAME] [--build DIR]
#
# Writes results/long_solve_RULES_W_L_G.md (with --part NAME,
# results/long_solve_RULES_W_L_G_NAME.md: a later part of one campaign, e.g.
# a run that resumes the checkpoint of an earlier one, beside its page).  The run is one process; its
# progress log is build/long_solve_RULES_W_L_G.log while it runs.
#
# A checkpoint named in --extra ("--checkpoint FILE") is kept with the page,
# as results/checkpoints/<page name>.ck, so that a later part can go on from
# it on any machine: copy it out and pass "--checkpoint COPY --resume".
. "$(dirname "$0")/lib.sh"
rules=book field=2,6,6 seconds=3600 memory=12G threads=1 extra="" part="" build=""
pb_options --rules=rules --field=field --seconds=seconds --memory=memory --threads=threads --extra=extra --part=part \
  --build=build -- "$@"
case $part in
  *[!a-z0-9-]*) echo "scripts/long_solve.sh: --part takes lower-case letters, digits and -" >&2; exit 2 ;;
esac
pb_program "$build"
# The checkpoint the run writes, if --extra names one.
checkpoint=$(sed -n 's/.*--checkpoint[ =]\([^ ]*\).*/\1/p' <<< "$extra")
name=long_solve_${rules}_${field//,/_}${part:+_$part}
out=$root/results/$name.md
log=$root/build/$name.log
kept=results/checkpoints/$name.ck
mkdir -p "$root/build"
t0=$(date +%s)
load0=$(cut -d' ' -f1-3 /proc/loadavg)
# shellcheck disable=SC2086 # $extra holds several options
cmd=(solve --rules "$rules" --field "$field" --time-limit "$seconds" --memory "$memory" --threads "$threads" $extra)
status=0
# Ctrl-C, or SIGTERM to the process group (Slurm, `kill -- -PGID`), stops
# the solve as its time limit would: it prints what it reached, saves its
# checkpoint and exits 3, and the page is written.  So this script and
# /usr/bin/time ignore the two signals while the solve runs (the solver,
# which inherits the ignoring, sets its own handlers); killed itself, time
# would report a status of its own and the page would be written while
# the solver was still saving.
trap '' INT TERM
/usr/bin/time -f 'time: %e s wall, %U s user, %S s system, %M KiB peak' "$pb" "${cmd[@]}" > "$log.out" 2> "$log" ||
  status=$?
trap - INT TERM
# The checkpoint kept beside the page, whole or not at all.
if [ -n "$checkpoint" ] && [ -f "$checkpoint" ]; then
  mkdir -p "$root/results/checkpoints"
  pb_write "$root/$kept" < "$checkpoint"
else
  kept=""
fi
{
  pb_head "A long solve: $rules (${field//,/;}) from the start${part:+, part $part}" "scripts/long_solve.sh --rules $rules --field $field --seconds $seconds --memory $memory --threads $threads${extra:+ --extra \"$extra\"}${part:+ --part $part}"
  echo "- command: \`paperball ${cmd[*]}\`"
  pb_timed_run "$t0" "$load0"
  echo "- exit status: $status (0: solved; 3: stopped by the time limit, Ctrl-C or SIGTERM, what was proven"
  echo "  saved; above 128: the run was killed by signal status - 128, e.g. 143 by SIGTERM)"
  if [ -n "$kept" ]; then
    echo "- checkpoint kept: \`$kept\` ($(wc -c < "$root/$kept") bytes; to go on from it, copy it out and"
    echo "  pass \`--checkpoint COPY --resume\`)"
  fi
  echo
  echo "## What it reached"
  echo
  echo '```'
  # Everything but the wording under the line of play: the value, each
  # first-turn class (--first-turns), the line, the search's figures.
  grep -v '^         ' "$log.out" || true
  grep '^time:' "$log" || true
  echo '```'
  echo
  echo "## Along the way"
  echo
  echo "Progress lines of the run, one in about every $((seconds / 24 > 0 ? seconds / 24 : 1)) seconds:"
  echo
  echo '```'
  { grep '^solve: ' "$log" || true; } | awk -v every=$((seconds / 24 > 0 ? seconds / 24 : 1)) '
    { t = $2 + 0; if (t >= next_t) { print; next_t = t + every } last = $0 }
    END { if (last != "") print last }' | uniq
  echo '```'
} | pb_write "$out"
rm -f "$log" "$log.out"
