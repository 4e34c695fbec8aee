#!/bin/bash
# enumeration_tables.sh - regenerates results/enumeration.md and
# results/enumeration.csv: for each rule set, every field (smallest first)
# whose whole games (every game played to its end, each bounce route
# counted) are counted within a time limit, with the command, commit,
# program (its --version: a table made over several sittings keeps one
# program, as its kept runs are keyed by it), machine and time of each row.
# Two methods count the same thing:
#   book, hockey: `paperball tb build --games` (backward over the layers of
#       the tablebase: each position's games from its successors'), then
#       `paperball enumerate` (forward, depth by depth) as the second
#       method: where both finish, every count must agree (else the row says
#       so and the script ends with status 1);
#   triple (no layers, no tablebase): `paperball enumerate` alone.
#
# usage: scripts/enumeration_tables.sh [-t SECONDS] [-c SECONDS] [-T SECONDS] [-j THREADS] [-m MEMORY] [-b PAPERBALL] [-o DIR] [-k DIR]
#   -t  time limit per field of the first method (default 120; the aim is
#       one hour: the table says which was used)
#   -c  time limit of the second method's check (default: as -t)
#   -T  time budget for the whole script (default 3600): fields not tried
#       by then are listed as not tried
#   -j  threads (default 2)      -m  --memory budget (default 8G)
#   -b  the paperball binary (default build/paperball)   -o  output directory (default results)
#   -k  keep each run in DIR (its output, the seconds it has had and its
#       checkpoint or layer files): the script run again with the same
#       options and program reuses the finished runs and resumes the one it
#       was stopped in (Ctrl-C, SIGTERM, kill -9, a lost session) with the
#       rest of its time limit (the work it kept is charged, not a pass
#       dropped by the stop), so a long table can be made in several sittings
#
# Fields: G <= W, all even, W and L up to 8 (those the rule set allows), ordered by their number of
# lattice cells, then W, then G, every rule set at one size before the
# next size (a table cut short by -T covers each rule set as far as the
# others).  A field is not tried once a field with
# the same goal width, no wider and no longer (and for hockey the same
# setback), has not finished: the work only grows with W and L.  (A wider
# goal can make the work smaller, book, or larger, triple: so fields of
# other goal widths are still tried.)
# Hockey is run with S = 0 and S = 1, dead end = draw; the dead end = loss
# variant has the same positions and games, so it is run only on the fields
# where the draw variant finished.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
LIMIT=120
CHECK=
TOTAL=3600
THREADS=2
MEMORY=8G
BIN=build/paperball
OUT=results
KEEP=
while getopts "t:c:T:j:m:b:o:k:" opt; do
    case $opt in
    t) LIMIT=$OPTARG ;;
    c) CHECK=$OPTARG ;;
    T) TOTAL=$OPTARG ;;
    j) THREADS=$OPTARG ;;
    m) MEMORY=$OPTARG ;;
    b) BIN=$OPTARG ;;
    o) OUT=$OPTARG ;;
    k) KEEP=$OPTARG ;;
    *) exit 2 ;;
    esac
done
CHECK=${CHECK:-$LIMIT}
[ -x "$BIN" ] || { echo "enumeration_tables.sh: no binary at $BIN (build first)" >&2; exit 2; }
BIN=$(cd "$(dirname "$BIN")" && pwd)/$(basename "$BIN")
BINVERSION=$("$BIN" --version)
mkdir -p "$OUT"
if [ -n "$KEEP" ]; then mkdir -p "$KEEP" && KEEP=$(cd "$KEEP" && pwd); fi
COMMIT=$commit
MACHINE=$machine
DATE=$(pb_now)
WORK=$(mktemp -d -t pb-enum-tables.XXXXXX)
# Ctrl-C or SIGTERM: the running program stops itself (keeping its
# checkpoint or layer files); the script marks the stop, records the
# seconds and leaves.
trap ': > "$WORK/stopped"' TERM INT
trap 'rm -rf "$WORK"' EXIT
START=$(date +%s)

# Both tables are built in $WORK and written whole at the end.
CSV="$WORK/enumeration.csv"
ROWS="$WORK/rows.md"
echo "rules,goal,width,length,setback,dead_end,status,depth,positions,games,top_wins,bottom_wins,draws,seconds,peak_mib,threads,command,commit,machine,date,method,second_method,program" > "$CSV"
: > "$ROWS"
MISMATCH="$WORK/mismatch"

# Fields in order of size.
fields() {
    for w in 2 4 6 8; do for l in 2 4 6 8; do for g in 2 4 6 8; do
        if [ $g -le $w ]; then echo "$((w * l)) $w $g $l"; fi
    done; done; done | sort -n -k1,1 -k2,2 -k3,3 | awk '{ print $3, $2, $4 }'
}

FAILED="$WORK/failed"
: > "$FAILED"
dominated() {   # key g w l: a field of the same goal, no wider and no longer, failed
    awk -v k="$1" -v g="$2" -v w="$3" -v l="$4" \
        '$1 == k && $2 == g && $3 <= w && $4 <= l { found = 1 } END { exit !found }' "$FAILED"
}

# kept_spent SPENT T0: SPENT plus the seconds from T0 (this sitting's start)
# to the newest file written in $DIR/ck since then (none: nothing added).
kept_spent() {
    find "$DIR/ck" -type f ! -name '*.tmp' -printf '%T@\n' 2> /dev/null |
        awk -v s="$1" -v a="$2" '$1 > a && $1 - a > d { d = $1 - a } END { printf "%.1f\n", s + d }'
}

# run_kept KIND LIMIT ARGS...: runs `paperball enumerate ARGS` (KIND
# enumerate) or `paperball tb build --games ARGS` (KIND tb) with
# --time-limit what is left of LIMIT, in a directory of its own, DIR:
# out.txt, err.txt, ck/ (the checkpoint or the layer files), spent (seconds
# had so far, rewritten every 10 s) and, once it is over, rc.  Sets DIR and
# RC; KEPT=1 when the run was over in an earlier sitting.  When the script
# is stopped meanwhile, it leaves (status 3), keeping ck/ and spent.
# A sitting that is stopped counts only up to the last file it wrote in ck/
# (a finished depth's checkpoint, a layer file, a layer's games): the pass
# in progress is dropped by the program, and its seconds are not charged to
# the field, so a field resumed after a stop still gets its whole limit for
# the work it keeps.  (Before, a pass of half an hour lost to a stop was
# charged, and the resumed field had half an hour less for that pass.)
run_kept() {
    local kind=$1 limit=$2
    shift 2
    local spent left t0 ticker had
    local -a sub extra
    DIR=$WORK/run-$kind
    rm -rf "$DIR"
    [ -n "$KEEP" ] && DIR=$KEEP/$(printf '%s %s %s %s' "$BINVERSION" "$kind" "$limit" "$*" | sha1sum | cut -c1-16)
    mkdir -p "$DIR/ck"
    KEPT=0
    if [ -s "$DIR/rc" ]; then
        RC=$(cat "$DIR/rc")
        KEPT=1
        return 0
    fi
    spent=$(cat "$DIR/spent" 2> /dev/null || echo 0)
    left=$(awk -v l="$limit" -v s="$spent" 'BEGIN { x = int(l - s); print x < 1 ? 1 : x }')
    if [ "$kind" = tb ]; then
        # A rerun goes on from the layer files beside the output.
        sub=(tb build --games)
        extra=(--out "$DIR/ck/field.pbt")
    else
        sub=(enumerate)
        extra=(--checkpoint "$DIR/ck")
        compgen -G "$DIR/ck/*.ckpt" > /dev/null && extra+=(--resume)
    fi
    t0=$(date +%s.%N)
    # Rewritten while the program runs as what a stop now would keep (a kill
    # -9 of the script leaves that).
    (while sleep 10; do
        kept_spent "$spent" "$t0" > "$DIR/spent.tmp" && mv -f "$DIR/spent.tmp" "$DIR/spent"
    done) &
    ticker=$!
    # --time-limit stops the run cleanly (exit 3) with what it finished;
    # timeout is only the backstop.
    # The standard error of every sitting is kept (appended): the layers or
    # depths a resumed run found in earlier sittings still count in its row.
    (cd "$DIR" && timeout --foreground $((left + 120)) "$BIN" "${sub[@]}" "$@" --time-limit "$left" \
        "${extra[@]}" > "$DIR/out.txt" 2>> "$DIR/err.txt")
    RC=$?
    kill "$ticker" 2> /dev/null; wait "$ticker" 2> /dev/null
    had=$(awk -v s="$spent" -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f\n", s + b - a }')
    # Stopped before its time was up (the script itself was stopped): the
    # checkpoint or layers and the seconds of the work they hold stay for
    # the next run.
    # (--foreground: a signal to the script's process group reaches the
    # program too, which stops cleanly with status 3.)
    if { [ $RC -eq 3 ] || [ $RC -eq 130 ] || [ $RC -eq 143 ]; } && { [ -e "$WORK/stopped" ] ||
        awk -v l="$limit" -v s="$had" 'BEGIN { exit !(s < l - 5) }'; }; then
        kept_spent "$spent" "$t0" > "$DIR/spent"
        echo "enumeration_tables: stopped in $NAME after $(cat "$DIR/spent") s of kept work;${KEEP:+ run again with -k $KEEP to go on}" >&2
        : > "$WORK/stopped"
        exit 3
    fi
    echo "$had" > "$DIR/spent"
    echo "$RC" > "$DIR/rc"
    rm -rf "$DIR/ck"
}

# games_of LINE: the games line of either program: E_GAMES (its first
# number), E_TOP, E_BOTTOM, E_DRAWS (after "Top wins", "Bottom wins",
# "draws").
games_of() {
    E_GAMES=$(echo "$1" | grep -o '[0-9][0-9]*' | head -1)
    E_TOP=$(echo "$1" | sed -n 's/.*Top wins \([0-9]*\).*/\1/p')
    E_BOTTOM=$(echo "$1" | sed -n 's/.*Bottom wins \([0-9]*\).*/\1/p')
    E_DRAWS=$(echo "$1" | sed -n 's/.*draws \([0-9]*\).*/\1/p')
}

# enum_parse LIMIT: E_STATUS, E_DEPTH, E_POS, E_GAMES, E_TOP, E_BOTTOM,
# E_DRAWS, E_PEAK of the enumeration run in $DIR that ended with $RC.
enum_parse() {
    E_STATUS="" E_DEPTH="" E_POS="" E_GAMES="" E_TOP="" E_BOTTOM="" E_DRAWS="" E_PEAK=""
    local o="$DIR/out.txt" e="$DIR/err.txt"
    if [ "$RC" -eq 0 ] && grep -q '^complete:' "$o"; then
        E_STATUS=complete
        E_DEPTH=$(sed -n 's/^complete: every game ends by depth \([0-9]*\).*/\1/p' "$o")
        games_of "$(grep '^games: ' "$o")"
        E_POS=$(sed -n 's/^positions: \([0-9]*\) .*/\1/p' "$o")
        E_PEAK=$(sed -n 's/.*peak memory \([0-9.]*\) MiB.*/\1/p' "$e" | tail -1)
    elif [ "$RC" -eq 3 ] || [ "$RC" -eq 124 ]; then
        E_STATUS="over $1 s"
        E_DEPTH=$(sed -n 's/^not complete: stopped at depth \([0-9]*\).*/\1/p' "$o")
        [ -z "$E_DEPTH" ] && E_DEPTH=$(grep -o 'depth [0-9]* done' "$e" | tail -1 | awk '{ print $2 }')
        E_GAMES=$(sed -n 's/^games finished by depth [0-9]*: \([0-9]*\) .*/\1/p' "$o")
        [ -n "$E_DEPTH" ] && E_STATUS="$E_STATUS (depth $E_DEPTH finished)"
    elif grep -q 'memory budget' "$e"; then
        E_STATUS="over --memory $MEMORY"
    else
        E_STATUS="error: $(tail -1 "$e")"
    fi
}

# tb_parse LIMIT: the same (E_...) of the tablebase build in $DIR.  Its
# deepest layer d holds positions whose every turn ends the game, so the
# longest game has d + 1 turns.
tb_parse() {
    E_STATUS="" E_DEPTH="" E_POS="" E_GAMES="" E_TOP="" E_BOTTOM="" E_DRAWS="" E_PEAK=""
    local o="$DIR/out.txt" e="$DIR/err.txt" layer
    # The deepest layer found, this sitting or before ("forward, found
    # before": a resumed build), a last empty one not counted.
    layer=$(sed -n 's/^tb: layer \([0-9]*\): [1-9][0-9]* classes (forward[,)].*/\1/p' "$e" | sort -n | tail -1)
    if [ "$RC" -eq 0 ] && grep -q '^games .* complete games' "$o"; then
        E_STATUS=complete
        E_DEPTH=$(sed -n 's/^layers *[0-9]*\.\.\([0-9]*\),.*/\1/p' "$o")
        E_DEPTH=$((E_DEPTH + 1))
        E_POS=$(sed -n 's/^stored .* = \([0-9]*\) positions.*/\1/p' "$o")
        games_of "$(grep '^games .* complete games' "$o")"
        E_PEAK=$(sed -n 's/^peak memory *\([0-9.]*\) MiB.*/\1/p' "$o")
    elif [ "$RC" -eq 3 ] || [ "$RC" -eq 124 ]; then
        E_STATUS="over $1 s"
        [ -n "$layer" ] && E_STATUS="$E_STATUS (layers to $layer found)"
    elif [ "$RC" -eq 4 ]; then
        E_STATUS="over --memory $MEMORY"
        [ -n "$layer" ] && E_STATUS="$E_STATUS (layers to $layer found)"
    else
        E_STATUS="error: $(tail -1 "$e")"
    fi
}

# run_field RULES G W L S DEAD [check]: one field by its method (with
# `check`, and the second method where the first is the tablebase);
# appends a row.
# Status 0: finished; 2: a shape the rule set does not allow; 1: not finished.
run_field() {
    local rules=$1 g=$2 w=$3 l=$4 s=$5 dead=$6 check=$7
    local -a args=(--rules "$rules" --field "$g,$w,$l")
    [ "$rules" = hockey ] && args+=(--setback "$s" --dead-end "$dead")
    args+=(--threads "$THREADS" --memory "$MEMORY")
    local method cmd second="" secs
    trap ': > "$WORK/stopped"' TERM INT # this runs in a subshell: set again
    [ -e "$WORK/stopped" ] && exit 3
    NAME="$rules ($g;$w;$l)"
    [ "$rules" = hockey ] && NAME="$NAME S=$s, dead end $dead"
    if [ "$rules" = triple ]; then
        method=enumerate
        cmd="paperball enumerate ${args[*]} --time-limit $LIMIT"
        run_kept enumerate "$LIMIT" "${args[@]}"
        # A shape the rule set does not allow (triple: W <= L) is no row at all.
        if [ "$RC" -eq 2 ] && grep -q 'bad field' "$DIR/err.txt"; then return 2; fi
        enum_parse "$LIMIT"
    else
        method=tablebase
        cmd="paperball tb build --games ${args[*]} --time-limit $LIMIT --out FILE"
        run_kept tb "$LIMIT" "${args[@]}"
        if [ "$RC" -eq 2 ] && grep -q 'bad field' "$DIR/err.txt"; then return 2; fi
        tb_parse "$LIMIT"
    fi
    [ "$KEPT" = 1 ] && echo "enumeration_tables: $NAME: kept from an earlier run" >&2
    secs=$(cat "$DIR/spent")
    local status=$E_STATUS depth=$E_DEPTH pos=$E_POS games=$E_GAMES top=$E_TOP bottom=$E_BOTTOM draws=$E_DRAWS
    local peak=$E_PEAK
    # The second method: the same counts found forward, depth by depth.
    if [ "$method" = tablebase ] && [ "$status" = complete ] && [ "$check" = check ]; then
        run_kept enumerate "$CHECK" "${args[@]}"
        enum_parse "$CHECK"
        if [ "$E_STATUS" != complete ]; then
            second="enumerate: $E_STATUS"
        elif [ "$E_DEPTH $E_POS $E_GAMES $E_TOP $E_BOTTOM $E_DRAWS" = "$depth $pos $games $top $bottom $draws" ]; then
            second="enumerate: the same, $(cat "$DIR/spent") s"
            : > "$WORK/checked"
        else
            second="enumerate: DIFFERENT (depth $E_DEPTH, positions $E_POS, games $E_GAMES = $E_TOP + $E_BOTTOM + $E_DRAWS)"
            echo "enumeration_tables: $NAME: the two methods differ: $second" >&2
            : > "$MISMATCH"
        fi
    fi
    local sb="" de=""
    [ "$rules" = hockey ] && sb=$s && de=$dead
    echo "$rules,$g,$w,$l,$sb,$de,$status,$depth,$pos,$games,$top,$bottom,$draws,$secs,$peak,$THREADS,\"$cmd\",$COMMIT,\"$MACHINE\",$DATE,$method,\"$second\",\"$BINVERSION\"" >> "$CSV"
    local name="($g;$w;$l)"
    [ "$rules" = hockey ] && name="$name S=$s, dead end $dead"
    echo "| $rules | $name | $status | $depth | $pos | $games | $top | $bottom | $draws | $secs | $method | $second | \`$cmd\` |" >> "$ROWS"
    echo "enumeration_tables: $NAME: $status, $secs s${second:+; $second}" >&2
    [ "$status" = complete ]
}

out_of_time() { [ $(($(date +%s) - START)) -ge "$TOTAL" ]; }

# try_field RULES S G W L: one field of one rule set (and setback), unless
# a smaller one of the same goal failed or the time budget is spent.
try_field() {
    local rules=$1 s=$2 g=$3 w=$4 l=$5 key="$1-$2"
    [ "$rules" = hockey ] && [ "$l" -lt $((2 * s + 2)) ] && return 0
    if dominated "$key" "$g" "$w" "$l"; then return 0; fi
    if out_of_time; then
        local name="($g;$w;$l)"
        [ "$rules" = hockey ] && name="$name S=$s"
        echo "| $rules | $name | not tried (script time budget $TOTAL s spent) | | | | | | | | | | |" >> "$ROWS"
        local sb=""
        [ "$rules" = hockey ] && sb=$s
        echo "$rules,$g,$w,$l,$sb,,not tried,,,,,,,,,$THREADS,,$COMMIT,\"$MACHINE\",$DATE,,,\"$BINVERSION\"" >> "$CSV"
        echo "$key $g $w $l" >> "$FAILED"
        return 0
    fi
    local rc=0
    rm -f "$WORK/checked"
    run_field "$rules" "$g" "$w" "$l" "$s" draw check || rc=$?
    # The loss variant is checked where the draw variant's check finished.
    case $rc in
    0) if [ "$rules" = hockey ]; then
        run_field hockey "$g" "$w" "$l" "$s" loss "$([ -e "$WORK/checked" ] && echo check)" || true
    fi ;;
    2) ;;
    *) echo "$key $g $w $l" >> "$FAILED" ;;
    esac
}

# Every rule set goes one field size at a time, all of them before the
# next size, so that a table cut short by the time budget (-T) covers every
# rule set up to the same size.  The rows of each rule set (and setback)
# are gathered apart and printed one rule set after another.
SETS="book-0 hockey-0 hockey-1 triple-0"
fields | while read -r g w l; do
    for set in $SETS; do
        ROWS="$WORK/rows-$set.md" CSV="$WORK/csv-$set"
        try_field "${set%-*}" "${set#*-}" "$g" "$w" "$l"
    done
done
# The loop runs in a subshell (a pipeline): a stop inside it leaves a mark.
if [ -e "$WORK/stopped" ]; then rm -rf "$WORK"; exit 3; fi
for set in $SETS; do
    cat "$WORK/rows-$set.md" >> "$ROWS" 2> /dev/null || true
    cat "$WORK/csv-$set" >> "$CSV" 2> /dev/null || true
done

ELAPSED=$(($(date +%s) - START))
{
    echo "# Whole games counted: every field that finishes"
    echo
    echo "Generated by \`scripts/enumeration_tables.sh -t $LIMIT -c $CHECK -T $TOTAL -j $THREADS -m $MEMORY\` on $DATE"
    echo "(commit $COMMIT; program: \`$BINVERSION\`; machine: $MACHINE; the script"
    echo "took $ELAPSED s of wall clock in this sitting; *seconds* below add up the"
    echo "work every sitting kept).  A map of the table, field by field: \"Whole games"
    echo "counted\" in [plots.md](plots.md) (\`scripts/plots.sh\` draws it from the CSV)."
    echo
    echo "Each row counts the complete games from the start (Top first): every turn"
    echo "sequence to the end of the game, each bounce route counted.  **Time limit:"
    echo "$LIMIT s per field** (wall clock, $THREADS threads on a shared 2-core machine)."
    echo "Book and hockey are counted backward over the layers of the field's"
    echo "tablebase (*method* tablebase: \`paperball tb build --games\`, docs/tablebase.md),"
    echo "and then forward, depth by depth, by \`paperball enumerate\` as the second"
    echo "method, given $CHECK s: where both finish, the depth, positions and every"
    echo "count must be equal, and the last column says so (the script fails if"
    echo "they differ).  Triple has no layers: \`paperball enumerate\` alone.  Fields"
    echo "are tried smallest first, every rule set at one size before the next size;"
    echo "a field is skipped once a field with the same goal, no wider and no longer,"
    echo "has not finished (a wider goal may end games sooner, so other goal widths"
    echo "are still tried).  Columns: *depth* = the longest game"
    echo "in turns; *positions* = distinct positions between turns summed over depths"
    echo "0..depth (the start included; for book and hockey every position belongs to"
    echo "one depth only); *games* = all complete games; wins by the player who wins"
    echo "(goals, own goals of the other, the other's dead ends); draws = hockey dead"
    echo "ends (dead end = draw).  A field stopped at the limit shows how far it got:"
    echo "the layers found by the tablebase's forward pass, or the last depth the"
    echo "enumeration finished.  *seconds*: wall seconds of the first method (summed"
    echo "over sittings when a kept run was stopped and resumed, \`-k\`).  Per-depth"
    echo "figures: \`paperball enumerate\` or \`paperball tb stats\`; docs/enumerate.md"
    echo "says exactly what is counted."
    echo
    echo "| rules | field | status | depth | positions | games | Top wins | Bottom wins | draws | seconds | method | second method | command |"
    echo "|---|---|---|---:|---:|---:|---:|---:|---:|---:|---|---|---|"
    cat "$ROWS"
    echo
    echo "How the game tree grows with depth (positions and turn sequences per depth, log scale;"
    echo "\`results/depths.csv\`, drawn by \`scripts/plots.sh\`, results/plots.md):"
    echo
    echo "![game-tree growth per depth](img/enumeration-growth.svg)"
} | pb_write "$OUT/enumeration.md"
pb_write "$OUT/enumeration.csv" < "$CSV"
DIFFER=0
[ -e "$MISMATCH" ] && DIFFER=1
rm -rf "$WORK"
echo "enumeration_tables: $ELAPSED s" >&2
if [ $DIFFER = 1 ]; then
    echo "enumeration_tables: the two methods differ on a field (see the table)" >&2
    exit 1
fi
