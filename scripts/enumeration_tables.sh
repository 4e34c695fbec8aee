#!/bin/bash
# enumeration_tables.sh - regenerates results/enumeration.md and
# results/enumeration.csv: for each rule set, every field (smallest first)
# whose whole-game enumeration (`paperball enumerate`, every game to its
# end) completes within a time limit, with the command, commit, machine and
# time of each row.
#
# usage: scripts/enumeration_tables.sh [-t SECONDS] [-T SECONDS] [-j THREADS] [-m MEMORY] [-b PAPERBALL] [-o DIR] [-k DIR]
#   -t  time limit per field (default 120; the aim is one hour, a shared
#       2-core machine gets a smaller one: the table says which)
#   -T  time budget for the whole script (default 3600): fields not tried
#       by then are listed as not tried
#   -j  threads (default 2)      -m  --memory budget (default 8G)
#   -b  the paperball binary (default build/paperball)   -o  output directory (default results)
#   -k  keep each field's run in DIR (its output, the seconds it has had and
#       its checkpoint): the script run again with the same options and
#       program reuses the finished fields and resumes a field it was
#       stopped in (Ctrl-C, SIGTERM, kill -9, a lost session) with the rest
#       of its time limit, so a long table can be made in several sittings
#
# Fields: G <= W, all even, W and L up to 8 (those the rule set allows), ordered by their number of
# lattice cells, then W, then G.  A field is not tried once a field no
# larger in every dimension (G, W, L; and for hockey the same setback) has
# exceeded the limit: enumeration work only grows with the field.
# Hockey is run with S = 0 and S = 1, dead end = draw; the dead end = loss
# variant has the same positions and games, so it is run only on the fields
# where the draw variant completed.  Triple is included once the build
# implements it (a first turn from the centre exists).
set -euo pipefail
. "$(dirname "$0")/lib.sh"
LIMIT=120
TOTAL=3600
THREADS=2
MEMORY=8G
BIN=build/paperball
OUT=results
KEEP=
while getopts "t:T:j:m:b:o:k:" opt; do
    case $opt in
    t) LIMIT=$OPTARG ;;
    T) TOTAL=$OPTARG ;;
    j) THREADS=$OPTARG ;;
    m) MEMORY=$OPTARG ;;
    b) BIN=$OPTARG ;;
    o) OUT=$OPTARG ;;
    k) KEEP=$OPTARG ;;
    *) exit 2 ;;
    esac
done
[ -x "$BIN" ] || { echo "enumeration_tables.sh: no binary at $BIN (build first)" >&2; exit 2; }
BIN=$(cd "$(dirname "$BIN")" && pwd)/$(basename "$BIN")
BINVERSION=$("$BIN" --version)
mkdir -p "$OUT"
if [ -n "$KEEP" ]; then mkdir -p "$KEEP" && KEEP=$(cd "$KEEP" && pwd); fi
COMMIT=$commit
MACHINE=$machine
DATE=$(pb_now)
WORK=$(mktemp -d -t pb-enum-tables.XXXXXX)
# Ctrl-C or SIGTERM: the running enumeration stops itself (keeping its
# checkpoint); the script marks the stop, records the seconds and leaves.
trap ': > "$WORK/stopped"' TERM INT
trap 'rm -rf "$WORK"' EXIT
START=$(date +%s)

# Both tables are built in $WORK and written whole at the end.
CSV="$WORK/enumeration.csv"
ROWS="$WORK/rows.md"
echo "rules,goal,width,length,setback,dead_end,status,depth,positions,games,top_wins,bottom_wins,draws,seconds,peak_mib,threads,command,commit,machine,date" > "$CSV"
: > "$ROWS"

# Fields in order of size.
fields() {
    for w in 2 4 6 8; do for l in 2 4 6 8; do for g in 2 4 6 8; do
        if [ $g -le $w ]; then echo "$((w * l)) $w $g $l"; fi
    done; done; done | sort -n -k1,1 -k2,2 -k3,3 | awk '{ print $3, $2, $4 }'
}

FAILED="$WORK/failed"
: > "$FAILED"
dominated() {   # key g w l: a field no larger in every dimension failed
    awk -v k="$1" -v g="$2" -v w="$3" -v l="$4" \
        '$1 == k && $2 <= g && $3 <= w && $4 <= l { found = 1 } END { exit !found }' "$FAILED"
}

# run_field RULES G W L S DEAD: one enumeration; appends a row.
run_field() {
    local rules=$1 g=$2 w=$3 l=$4 s=$5 dead=$6
    local args="--rules $rules --field $g,$w,$l"
    [ "$rules" = hockey ] && args="$args --setback $s --dead-end $dead"
    local cmd="paperball enumerate $args --threads $THREADS --memory $MEMORY --time-limit $LIMIT"
    local t0 rc status dir spent left resume ticker secs
    trap ': > "$WORK/stopped"' TERM INT # this runs in a subshell: set again
    [ -e "$WORK/stopped" ] && exit 3
    # The run's directory: out.txt, err.txt, ck/ (the checkpoint), spent
    # (seconds had so far, rewritten every 10 s), and once it is over rc.
    dir=$WORK/field
    rm -rf "$dir"
    [ -n "$KEEP" ] && dir=$KEEP/$(printf '%s %s' "$BINVERSION" "$cmd" | sha1sum | cut -c1-16)
    mkdir -p "$dir/ck"
    if [ -s "$dir/rc" ]; then
        rc=$(cat "$dir/rc")
        echo "enumeration_tables: $rules ($g;$w;$l)$([ "$rules" = hockey ] && echo " S=$s, dead end $dead"): kept from an earlier run" >&2
    else
        spent=$(cat "$dir/spent" 2> /dev/null || echo 0)
        left=$(awk -v l="$LIMIT" -v s="$spent" 'BEGIN { x = int(l - s); print x < 1 ? 1 : x }')
        resume=
        compgen -G "$dir/ck/*.ckpt" > /dev/null && resume=--resume
        t0=$(date +%s.%N)
        (while sleep 10; do
            awk -v s="$spent" -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f\n", s + b - a }' \
                > "$dir/spent.tmp" && mv -f "$dir/spent.tmp" "$dir/spent"
        done) &
        ticker=$!
        # --time-limit stops the run cleanly (exit 3) with its finished
        # depths; timeout is only the backstop.
        (cd "$dir" && timeout --foreground $((left + 120)) "$BIN" enumerate $args --threads $THREADS --memory $MEMORY \
            --time-limit "$left" --checkpoint "$dir/ck" $resume > "$dir/out.txt" 2> "$dir/err.txt")
        rc=$?
        kill "$ticker" 2> /dev/null; wait "$ticker" 2> /dev/null
        awk -v s="$spent" -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f\n", s + b - a }' > "$dir/spent"
        # Stopped before its time was up (the script itself was stopped):
        # the checkpoint and the seconds stay for the next run.
        # (--foreground: a signal to the script's process group reaches the
        # enumeration too, which stops cleanly with status 3.)
        if { [ $rc -eq 3 ] || [ $rc -eq 130 ] || [ $rc -eq 143 ]; } && { [ -e "$WORK/stopped" ] ||
            awk -v l="$LIMIT" -v s="$(cat "$dir/spent")" 'BEGIN { exit !(s < l - 5) }'; }; then
            echo "enumeration_tables: stopped in $rules ($g;$w;$l) after $(cat "$dir/spent") s;${KEEP:+ run again with -k $KEEP to go on}" >&2
            : > "$WORK/stopped"
            exit 3
        fi
        echo "$rc" > "$dir/rc"
        rm -rf "$dir/ck"
    fi
    # A shape the rule set does not allow (triple: W <= L) is no row at all.
    if [ $rc -eq 2 ] && grep -q 'bad field' "$dir/err.txt"; then return 2; fi
    secs=$(cat "$dir/spent")
    local depth="" pos="" games="" top="" bottom="" draws="" peak=""
    if [ $rc -eq 0 ] && grep -q '^complete:' "$dir/out.txt"; then
        status=complete
        depth=$(sed -n 's/^complete: every game ends by depth \([0-9]*\).*/\1/p' "$dir/out.txt")
        games=$(sed -n 's/^games: \([0-9]*\) .*/\1/p' "$dir/out.txt")
        top=$(sed -n 's/^games: .*Top wins \([0-9]*\),.*/\1/p' "$dir/out.txt")
        bottom=$(sed -n 's/^games: .*Bottom wins \([0-9]*\),.*/\1/p' "$dir/out.txt")
        draws=$(sed -n 's/^games: .*draws \([0-9]*\)).*/\1/p' "$dir/out.txt")
        pos=$(sed -n 's/^positions: \([0-9]*\) .*/\1/p' "$dir/out.txt")
        peak=$(sed -n 's/.*peak memory \([0-9.]*\) MiB.*/\1/p' "$dir/err.txt" | tail -1)
    elif [ $rc -eq 3 ] || [ $rc -eq 124 ]; then
        status="over ${LIMIT} s"
        depth=$(sed -n 's/^not complete: stopped at depth \([0-9]*\).*/\1/p' "$dir/out.txt")
        [ -z "$depth" ] && depth=$(grep -o 'depth [0-9]* done' "$dir/err.txt" | tail -1 | awk '{ print $2 }')
        games=$(sed -n 's/^games finished by depth [0-9]*: \([0-9]*\) .*/\1/p' "$dir/out.txt")
        [ -n "$depth" ] && status="$status (depth $depth finished)"
    elif grep -q 'memory budget' "$dir/err.txt"; then
        status="over --memory $MEMORY"
    else
        status="error: $(tail -1 "$dir/err.txt")"
    fi
    local sb="" de=""
    [ "$rules" = hockey ] && sb=$s && de=$dead
    echo "$rules,$g,$w,$l,$sb,$de,$status,$depth,$pos,$games,$top,$bottom,$draws,$secs,$peak,$THREADS,\"$cmd\",$COMMIT,\"$MACHINE\",$DATE" >> "$CSV"
    local name="($g;$w;$l)"
    [ "$rules" = hockey ] && name="$name S=$s, dead end $dead"
    echo "| $rules | $name | $status | $depth | $pos | $games | $top | $bottom | $draws | $secs | \`$cmd\` |" >> "$ROWS"
    echo "enumeration_tables: $rules $name: $status, $secs s" >&2
    [ "$status" = complete ]
}

out_of_time() { [ $(($(date +%s) - START)) -ge "$TOTAL" ]; }

series() {   # series RULES S: every field of one rule set (and setback)
    local rules=$1 s=$2 key="$1-$2"
    fields | while read -r g w l; do
        [ "$rules" = hockey ] && [ "$l" -lt $((2 * s + 2)) ] && continue
        if dominated "$key" "$g" "$w" "$l"; then continue; fi
        if out_of_time; then
            local name="($g;$w;$l)"
            [ "$rules" = hockey ] && name="$name S=$s"
            echo "| $rules | $name | not tried (script time budget $TOTAL s spent) | | | | | | | | |" >> "$ROWS"
            echo "$key $g $w $l" >> "$FAILED"
            continue
        fi
        local rc=0
        run_field "$rules" "$g" "$w" "$l" "$s" draw || rc=$?
        case $rc in
        0) if [ "$rules" = hockey ]; then run_field hockey "$g" "$w" "$l" "$s" loss || true; fi ;;
        2) ;;
        *) echo "$key $g $w $l" >> "$FAILED" ;;
        esac
    done
}

# A series runs in a subshell (a pipeline): a stop inside it leaves a mark.
stopped() { if [ -e "$WORK/stopped" ]; then rm -rf "$WORK"; exit 3; fi; }
series book 0
stopped
series hockey 0
stopped
series hockey 1
stopped
TRIPLE_NOTE=""
if [ "$("$BIN" perft --rules triple --depth 1 --json 2> /dev/null | grep -o '"sequences":[0-9]*' | head -1)" \
    = '"sequences":0' ] || ! "$BIN" perft --rules triple --depth 1 > /dev/null 2>&1; then
    TRIPLE_NOTE="Triple: not enumerated: this build does not implement the triple rules yet (no first turn from the centre)."
else
    series triple 0
    stopped
fi

ELAPSED=$(($(date +%s) - START))
{
    echo "# Whole-game enumeration: every field that completes"
    echo
    echo "Generated by \`scripts/enumeration_tables.sh -t $LIMIT -T $TOTAL -j $THREADS -m $MEMORY\` on $DATE"
    echo "(commit $COMMIT; machine: $MACHINE; the script took $ELAPSED s)."
    echo
    echo "Each row is one \`paperball enumerate\` run from the start (Top first) with no"
    echo "depth limit: every game is played to its end.  **Time limit: $LIMIT s per field**"
    echo "(the aim is one hour; the machine is 2 shared cores, so a smaller limit"
    echo "is used, and times are wall-clock on a loaded machine).  Fields are tried"
    echo "smallest first; a field is skipped once a field no larger in G, W and L has"
    echo "exceeded the limit.  Columns: *depth* = the longest game in turns; *positions* ="
    echo "distinct positions summed over depths 0..depth (the start included; for book and"
    echo "hockey every position belongs to one depth only); *games* = all complete games"
    echo "(turn sequences from the start to an end); wins by the player who wins (goals,"
    echo "own goals of the other, the other's dead ends); draws = hockey dead ends (dead"
    echo "end = draw).  A field stopped at the limit shows its last finished depth and"
    echo "the games finished by then; *seconds* are the wall seconds a field had (summed"
    echo "over the sittings when a kept run was stopped and resumed, \`-k\`).  Per-depth"
    echo "figures: run the command shown.  docs/enumerate.md says"
    echo "exactly what is counted."
    echo
    [ -n "$TRIPLE_NOTE" ] && echo "$TRIPLE_NOTE" && echo
    echo "| rules | field | status | depth | positions | games | Top wins | Bottom wins | draws | seconds | command |"
    echo "|---|---|---|---:|---:|---:|---:|---:|---:|---:|---|"
    cat "$ROWS"
    echo
    echo "How the game tree grows with depth (positions and turn sequences per depth, log scale;"
    echo "\`results/depths.csv\`, drawn by \`scripts/plots.sh\`, results/plots.md):"
    echo
    echo "![game-tree growth per depth](img/enumeration-growth.svg)"
} | pb_write "$OUT/enumeration.md"
pb_write "$OUT/enumeration.csv" < "$CSV"
rm -rf "$WORK"
echo "enumeration_tables: $ELAPSED s" >&2
