#!/bin/bash
# kept_runs.sh - carries the finished runs of a long table from one machine
# to the next.  A table such as the one-hour whole-games table
# (scripts/enumeration_tables.sh -k KEEP) takes more hours than one sitting,
# and its keep directory lives outside the repository: a new machine would
# start it again from nothing.  The finished runs in it are small (the
# program's output, the seconds it had, its exit status; their checkpoint or
# layer files are gone once a run is over), so they can be kept in the
# repository and put back.
#
# usage: scripts/kept_runs.sh save KEEP DIR   copy every finished run of KEEP
#                                             (one with an exit status) to DIR
#        scripts/kept_runs.sh load DIR KEEP   copy every run of DIR that KEEP
#                                             lacks into KEEP
#
# A run is a directory named by a key of the program's --version, the method,
# the time limit and the arguments (so a run is reused only by the same
# program with the same options; a program built again from the same commit
# has the same --version).  scripts/solve_tables.sh --keep makes runs of the
# same shape (its JSON in out.txt, and when the run ended in ended), so its
# tables (results/values.md) are carried the same way.  A run still in
# progress (no exit status) is not saved: without its checkpoint it would be
# charged seconds whose work is lost.  Neither direction overwrites a run already there.  DIR gets a
# README.md saying what it holds.
set -euo pipefail
usage() {
    echo "usage: $(basename "$0") save KEEP DIR | load DIR KEEP" >&2
    exit 2
}
[ $# -eq 3 ] || usage
cmd=$1 from=$2 to=$3
case $cmd in save | load) ;; *) usage ;; esac
[ -d "$from" ] || { echo "$(basename "$0"): no directory $from" >&2; exit 2; }
mkdir -p "$to"
src=$(cd "$from" && pwd)
n=0
for run in "$from"/*/; do
    [ -d "$run" ] || continue
    run=${run%/}
    name=$(basename "$run")
    [ -s "$run/rc" ] || continue
    [ -e "$to/$name" ] && continue
    # Copied into a temporary name first: a run in DIR is always whole (a
    # copy cut short by a stop is begun again).
    rm -rf "$to/.$name.tmp"
    mkdir "$to/.$name.tmp"
    # The keep directory's own path, where the program wrote it (a
    # tablebase's file), is written KEEP: no machine's path is kept.
    # The enumeration's progress lines (one every 2 s: some 180 KB an hour)
    # are thinned to one in 30 and the last of each depth; no line the
    # table reads is one of them.
    for f in out.txt err.txt spent ended rc; do
        [ -e "$run/$f" ] || continue
        if [ "$cmd" = save ] && [ $f = err.txt ]; then
            awk '/^enumerate: depth [0-9]+: [0-9]+\/[0-9]+ expanded / {
                     if (n++ % 30 == 0) print; else held = $0; next }
                 { if (held != "") print held; held = ""; n = 0; print }
                 END { if (held != "") print held }' "$run/$f"
        else
            cat "$run/$f"
        fi | sed "s#$src/#KEEP/#g" > "$to/.$name.tmp/$f"
    done
    mv "$to/.$name.tmp" "$to/$name"
    n=$((n + 1))
done
if [ "$cmd" = save ]; then
    cat > "$to/README.md" << 'EOF'
# Kept runs of a table in the making

Each directory is one finished run of `scripts/enumeration_tables.sh -k`
or `scripts/solve_tables.sh --keep` (the program's standard output
`out.txt`, its standard error `err.txt`, the seconds it had over all
sittings `spent` or when it ended `ended`, and its exit status `rc`),
named by a key of the program's version, method, time limit and arguments
(where the program wrote a path of the keep directory, it reads `KEEP/`;
of the enumeration's progress lines, written every 2 s, one in 30 and the
last of each depth are kept).
They let a table that takes more hours than one sitting go on from another
machine: `scripts/kept_runs.sh load` puts them back into a keep directory,
and the table script run again with the same options and a program built
from the same commit reuses them instead of running them again.  The
table itself (`enumeration.md` and `.csv`, `values.md` and `.csv`) is
written by the table script alone, from these runs and the ones it still
makes.
EOF
fi
echo "$(basename "$0"): $cmd: $n run(s) copied to $to" >&2
