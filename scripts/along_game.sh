#!/usr/bin/env bash
# scripts/along_game.sh - how far from its end a game can be solved: the
# positions of one game record, from its last turn back towards the start,
# each solved exactly with a time limit, until positions stop falling.  On
# a field too large to solve from the start (the book's (2;6;8)) it shows
# how many turns in the exact search reaches today, and how the cost grows
# with every turn taken back.
#
#   scripts/along_game.sh [--rules R] [--field W,L,G] [--game NAME | --record TEXT]
#                         [--seconds S] [--threads N] [--memory SIZE]
#                         [--from K] [--misses M] [--carry yes|no] [--proofs FILE]
#                         [--extra "OPTIONS"] [--part NAME] [--build DIR]
#
# The game: --record TEXT (one turn a word), or --game NAME, a benchmark
# game of scripts/lib.sh (default book-2-6-8-after-20, the game of the
# thread benchmarks).  The position after K turns is solved first (K: the
# whole record unless --from), then after K-1, K-2, ... down to the start;
# the walk stops once M positions in a row (default 2) were not solved
# within S seconds (default 600) each.  Writes
# results/along_game_RULES_W_L_G[_NAME].md and a picture of the earliest
# position solved with its line of perfect play,
# results/img/along-game-RULES-W-L-G[-NAME].svg.
#
# --carry yes (the default): each position is solved with the saved proofs
# of the position solved before it, one turn later in the game (`solve
# --proofs`), and keeps its own, with what it read, for the next
# (`--checkpoint`): the values are the same, found faster where the game's
# move was a best one.  --carry no: each position alone.  The proofs of the
# last position tried, which hold all those carried to it, are kept as
# results/checkpoints/along_game_RULES_W_L_G[_NAME].ck; --proofs FILE gives
# such a file (or any checkpoint of the rules and field) to the first
# position solved, so that a walk goes on, on another machine, with
# --from K --proofs FILE.
#
# Resumable: each position's result is kept in build/along_game_.../ with
# the options that made it; a rerun with the same options reads a finished
# position back instead of solving it again.  Ctrl-C, or SIGTERM to the
# process group, stops the solve in progress as its time limit would (it
# counts as not solved) and the page is written with what was done.
. "$(dirname "$0")/lib.sh"
rules=book field=2,6,8 game=book-2-6-8-after-20 record="" seconds=600 threads=2 memory=8G from="" misses=2
extra="" part="" build="" carry=yes proofs=""
pb_options --rules=rules --field=field --game=game --record=record --seconds=seconds --threads=threads \
  --memory=memory --from=from --misses=misses --carry=carry --proofs=proofs --extra=extra --part=part --build=build -- "$@"
pb_program "$build"
me=scripts/$(basename "$0")
bad() {
  echo "$me: $1" >&2
  exit 2
}
[[ $seconds =~ ^[0-9]+([.][0-9]+)?$ ]] && awk -v s="$seconds" 'BEGIN { exit !(s > 0) }' ||
  bad "--seconds $seconds: expected a positive number"
[[ $misses =~ ^[1-9][0-9]*$ ]] || bad "--misses $misses: expected a positive whole number"
[[ $threads =~ ^[1-9][0-9]*$ ]] || bad "--threads $threads: expected a positive whole number"
[[ -z $part || $part =~ ^[A-Za-z0-9_-]+$ ]] || bad "--part $part: expected letters, digits, - or _"
[[ $carry =~ ^(yes|no)$ ]] || bad "--carry $carry: expected yes or no"
if [ -n "$proofs" ]; then
  [ -f "$proofs" ] && [ -r "$proofs" ] || bad "--proofs $proofs: no such file"
  proofs=$(realpath "$proofs")
fi
if [ -z "$record" ]; then
  record=$(pb_bench_record "$game") || exit 2
  source_text="the benchmark game \`$game\`"
else
  source_text="the record given"
fi
read -r -a turns <<<"$record"
n=${#turns[@]}
[ -n "$from" ] || from=$n
[[ $from =~ ^[0-9]+$ ]] && [ "$from" -le "$n" ] || bad "--from $from: expected a whole number from 0 to $n (the record's turns)"

slug=${rules}_${field//,/_}${part:+_$part}
out=$root/results/along_game_$slug.md
pic=$root/results/img/along-game-${slug//_/-}.svg
state=$root/build/along_game_$slug
mkdir -p "$state" "$root/results/img"
t0=$(date +%s)
load0=$(cut -d' ' -f1-3 /proc/loadavg)

# The whole game must be legal: checked once by show, which reads the
# record as solve does (bad record: the program's one line, status 2).
st=0
"$pb" show --rules "$rules" --field "$field" $extra --record "$record" > /dev/null 2> "$state/record.err" || st=$?
if [ "$st" -ne 0 ]; then
  cat "$state/record.err" >&2
  exit "$st"
fi

# A stop by signal: the solve in progress (same process group) gets it too
# and ends as at its time limit; the walk then ends and the page is written.
stopped=0
trap 'stopped=1' INT TERM

prefix() { echo "${turns[@]:0:$1}"; }
turns_word() { if [ "$1" -eq 1 ]; then echo "1 turn"; else echo "$1 turns"; fi; }
# The checkpoint of the position solved last (--carry yes), for the next.
carried=$proofs
nsolved=0 nread=0 # positions solved by this run, read back from earlier ones
# shellcheck disable=SC2086 # $extra holds several options
solve_at() {
  local k=$1 opts st=0 rec ck=()
  rec=$(prefix "$k")
  opts="$rules|$field|$extra|$seconds|$threads|$memory|$rec"
  [ "$carry" = no ] || opts="$opts|carry"
  [ -z "$proofs" ] || opts="$opts|proofs=$proofs"
  if [ -f "$state/$k.status" ] && [ "$(cat "$state/$k.opts" 2> /dev/null)" = "$opts" ]; then
    echo "$me: after $k turn(s): read back (exit $(cat "$state/$k.status"))" >&2
    nread=$((nread + 1))
    return 0
  fi
  rm -f "$state/$k".*
  [ "$carry" = no ] || ck=(--checkpoint "$state/$k.ck" --save-every 600)
  [ -z "$carried" ] || [ ! -s "$carried" ] || ck+=(--proofs "$carried")
  echo "$me: after $k turn(s): solving (at most $seconds s; its progress in ${state#"$root"/}/$k.err)" >&2
  # time ignores the two signals (the solver sets its own handlers), so
  # that a stop by signal ends the solve as its time limit would.
  (
    trap '' INT TERM
    exec /usr/bin/time -f '%e %M' -o "$state/$k.time.new" "$pb" solve --rules "$rules" --field "$field" $extra \
      --record "$rec" --time-limit "$seconds" --memory "$memory" --threads "$threads" --json \
      --svg "$state/$k.svg" "${ck[@]}" > "$state/$k.json.new" 2> "$state/$k.err"
  ) || st=$?
  if [ "$stopped" -ne 0 ]; then
    # Cut short by the signal, not by its time: not a result to keep.
    rm -f "$state/$k".*
    echo "$me: after $k turn(s): stopped by a signal" >&2
    return 1
  fi
  if [ "$st" -ne 0 ] && [ "$st" -ne 3 ]; then
    tail -1 "$state/$k.err" >&2
    [ "$st" -eq 2 ] && exit 2 # bad input (a --proofs file refused)
    exit 1
  fi
  mv "$state/$k.time.new" "$state/$k.time"
  mv "$state/$k.json.new" "$state/$k.json"
  echo "$opts" > "$state/$k.opts"
  echo "$st" > "$state/$k.status" # last: a position is finished only with it
  nsolved=$((nsolved + 1))
  echo "$me: after $k turn(s): exit $st" >&2
}

k=$from miss=0 done=()
while [ "$k" -ge 0 ] && [ "$miss" -lt "$misses" ] && [ "$stopped" -eq 0 ]; do
  solve_at "$k" || break
  [ "$carry" = no ] || [ ! -s "$state/$k.ck" ] || carried=$state/$k.ck # (a game's end keeps none)
  if grep -q '"game_over":true' "$state/$k.json"; then # the record's end: nothing to solve
    k=$((k - 1))
    continue
  fi
  done+=("$k")
  if [ "$(cat "$state/$k.status")" -eq 0 ]; then miss=0; else miss=$((miss + 1)); fi
  k=$((k - 1))
done
trap - INT TERM

summary=$(python3 - "$state" "${done[@]}" <<'EOF'
import json, os, re, sys
state, ks = sys.argv[1], [int(k) for k in sys.argv[2:]]
# earliest: the last of the positions solved one after another from the
# first; later: those solved after a miss.
rows, earliest, run, later = [], None, True, []
for k in ks:
    base = os.path.join(state, str(k))
    d = json.load(open(base + ".json"))
    wall, peak = open(base + ".time").read().split()[-2:]
    v = d["value"]
    solved = v != "unknown"
    if solved and run:
        earliest = k
    elif solved:
        later.append(str(k))
    else:
        run = False
    got = re.findall(r"read (\d+) proven positions", open(base + ".err").read())
    read = f"{sum(int(g) for g in got):,}" if got else "-"
    numbers = "-" if solved else f"{d.get('root_pn', '-')} / {d.get('root_dn', '-')}"
    best = d.get("best") or "-"
    rows.append(f"| {k} | {d['to_move']} | {'**' + v + '**' if solved else 'not solved'} | "
                f"{best if solved else '-'} | {numbers} | {read} | {d['nodes']:,} | {float(wall):.1f} | {int(peak) // 1024:,} |")
print(earliest if earliest is not None else "-", ks[0] if ks else "-", ",".join(later) or "-")
for r in rows:
    print(r)
EOF
) || exit 1
read -r earliest first later <<<"$(head -1 <<<"$summary")"
# The proofs of the last position tried hold every proof carried to it.
kept=""
if [ "$carry" = yes ] && [ "${#done[@]}" -gt 0 ] && [ -s "$state/${done[-1]}.ck" ]; then
  kept=results/checkpoints/along_game_$slug.ck
  mkdir -p "$root/results/checkpoints"
  cp "$state/${done[-1]}.ck" "$root/$kept.tmp" && mv -f "$root/$kept.tmp" "$root/$kept" && chmod 644 "$root/$kept"
fi
if [ "$earliest" != - ]; then
  cp "$state/$earliest.svg" "$pic.tmp" && mv -f "$pic.tmp" "$pic" && chmod 644 "$pic"
fi

{
  pb_head "Along a game: $rules (${field//,/;}) solved from the end back${part:+, part $part}" \
    "$me --rules $rules --field $field $([ "$source_text" = "the record given" ] && echo "--record \"...\"" || echo "--game $game") --seconds $seconds --threads $threads --memory $memory --from $from --misses $misses --carry $carry${extra:+ --extra \"$extra\"}${part:+ --part $part}"
  echo "- command, for each position: \`paperball solve --rules $rules --field $field${extra:+ $extra} --record FIRST-K-TURNS --time-limit $seconds --memory $memory --threads $threads --json$([ "$carry" = no ] || echo " --checkpoint K.ck --proofs K+1.ck")\`"
  [ "$carry" = no ] || echo "- proofs carried: each position read the saved proofs of the one solved before it (one turn later), which held those of the ones before that; the values are as without them"
  # (named within the repository, else by its file name alone)
  [ -z "$proofs" ] || echo "- the first position solved also read the proofs of \`$(case $proofs in "$root"/*) echo "${proofs#"$root"/}" ;; *) basename "$proofs" ;; esac)\`"
  [ -z "$kept" ] || echo "- proofs kept: \`$kept\`, those of the last position tried (after $(turns_word "${done[-1]}")) with every proof carried to it; a walk goes on from there, on any machine, with \`--from K --proofs\` that file"
  pb_timed_run "$t0" "$load0"
  [ "$nread" -eq 0 ] || echo "- positions solved by this run: $nsolved; read back from an earlier run with the same options: $nread (their figures are that run's)"
  [ "$stopped" -eq 0 ] || echo "- stopped by a signal: the solve then in progress was cut short (not listed), and the walk ended there"
  echo
  if [ "$first" = - ]; then
    echo "**What it shows: nothing yet: the walk was stopped before its first position was solved.**"
  elif [ "$earliest" = - ]; then
    echo "**What it shows: the position after $(turns_word "$first") was not solved within $seconds s.**"
    [ "$later" = - ] || echo "(Solved after it, each within the time: after ${later//,/, } turns.)"
  else
    if [ "$earliest" -eq 0 ]; then
      echo "**What it shows: every position of the game from $(turns_word "$first") in back to the start was solved, each"
      echo "within $seconds s.**"
    else
      echo "**What it shows: the positions of the game from $(turns_word "$first") in back to $(turns_word "$earliest") in were solved,"
      echo "each within $seconds s; the one before was not.**"
    fi
    [ "$later" = - ] || echo "(Solved after that too, each within the time: after ${later//,/, } turns.)"
  fi
  echo
  echo "The game: $source_text, $n turns:"
  echo
  echo '```'
  echo "$record" | fold -s -w 100
  echo '```'
  echo
  echo "*Turns* is how many turns of it were played; the value is for the player to"
  echo "move then, with perfect play from there, and *best* a turn of perfect play. A"
  echo "position not solved within the time gives the proof and disproof numbers at"
  echo "the root of its search (proof-number search, \"can the player to move win?\"),"
  echo "which only say how far it got. Wall seconds and peak memory (MiB) of the"
  echo "process; nodes are single steps. *Proofs read*: the proven positions the"
  echo "position's solve read from the one after it (\`--carry yes\`)."
  echo
  echo "| turns | to move | value | best | proof / disproof number | proofs read | nodes | wall s | peak MiB |"
  echo "|---|---|---|---|---|---|---|---|---|"
  tail -n +2 <<<"$summary"
  if [ "$earliest" != - ]; then
    echo
    echo "The earliest position solved, after $(turns_word "$earliest"), with its line of perfect play:"
    echo
    echo "![the position after $(turns_word "$earliest") and its line](img/$(basename "$pic"))"
  fi
} | pb_write "$out"
chmod 644 "$out"
[ "$stopped" -eq 0 ] || exit 3
