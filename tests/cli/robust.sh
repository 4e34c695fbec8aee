#!/usr/bin/env bash
# robust.sh - what every command owes its caller: options checked against
# the command's own table (exit 2 for the rest), --help listing only those,
# output that was really written (exit 5), record files that are text,
# distinct exit statuses, --version and the version in JSON and CSV.
. "$(dirname "$0")/lib/check.sh"
root=$(cd "$(dirname "$0")/../.." && pwd)
S="--field 2,2,2"

# ---- every long run, SIGTERM (timeout, kill, Slurm): exit 3 within ten
# seconds and one closing line.  (Perft had no stop: the signal killed it.)  Each run takes minutes (the estimate of
# book (2;4;4) some ten seconds), so the signal comes half-way.  Once
# missed: the distance search ran on while it found the value, the
# tablebase estimate died of the signal.
sigterm() {
    local name=$1; shift
    "$pb" "$@" > term.out 2> term.err &
    local pid=$! i
    sleep 1
    kill -TERM $pid
    for i in $(seq 100); do kill -0 $pid 2> /dev/null || break; sleep 0.1; done
    if kill -0 $pid 2> /dev/null; then
        kill -KILL $pid
        wait $pid
        fail "SIGTERM, $name: still running ten seconds later"
        return
    fi
    wait $pid
    check "SIGTERM, $name: exit 3" 3 $?
    [ "$(grep -c '^paperball:' term.err)" -eq 1 ] || fail "SIGTERM, $name: not one closing line: $(cat term.err)"
}
sigterm "solve" solve --field 2,8,10 --quiet
sigterm "solve --algo ab --first-turns --threads 2" solve --field 2,8,10 --algo ab --first-turns --threads 2 --quiet
sigterm "solve --all-routes" solve --field 2,8,10 --all-routes --quiet
sigterm "solve --shortest" solve --field 2,6,8 --shortest --quiet
contains "SIGTERM, solve --shortest: named" "stopped by SIGTERM" "$(cat term.err)"
sigterm "solve --match" solve --rules triple --field 2,6,8 --match --quiet
contains "SIGTERM, solve --match: named" "stopped by SIGTERM" "$(cat term.err)"
printf 'e7-e8\ne7-e6\n' > term-batch.txt
sigterm "solve --batch" solve --field 2,8,10 --batch term-batch.txt
check "SIGTERM, solve --batch: the line under way answered, no more" "line 1: unknown" "$(cut -c1-15 term.out)"
contains "SIGTERM, solve --batch: where" "stopped by SIGTERM in line 1" "$(cat term.err)"
# A batch read from a pipe, waiting for its next line when the signal comes.
mkfifo term.fifo
"$pb" perft --field 2,8,10 --depth 2 --batch - < term.fifo > term.out 2> term.err &
pid=$!
exec 7> term.fifo
echo e7-e8 >&7
sleep 1
kill -TERM $pid
wait $pid
check "SIGTERM, a batch waiting for input: exit 3" 3 $?
exec 7>&-
contains "SIGTERM, a batch waiting for input: where" "stopped by SIGTERM in line 1" "$(cat term.err)"
check "SIGTERM, a batch waiting for input: the line done" 1 "$(wc -l < term.out)"
rm -f term.fifo
sigterm "enumerate" enumerate --field 2,6,8 --quiet --checkpoint term-ck
sigterm "prove" prove
sigterm "tb build (in the estimate)" tb build --field 2,4,4 --out term.pbt
contains "SIGTERM, tb build: named" "stopped by SIGTERM during the estimate" "$(cat term.err)"
sigterm "tb estimate" tb estimate --field 2,4,4
sigterm "perft" perft --field 2,8,10 --depth 9
contains "SIGTERM, perft: named" "stopped by SIGTERM before perft(9) was counted" "$(cat term.err)"
sigterm "perft --threads 2 --divide" perft --field 2,8,10 --depth 9 --threads 2 --divide
# The layered count prints the depths it finished, as a run to that depth does.
sigterm "perft --positions" perft --field 2,6,8 --depth 9 --positions
n=$(($(wc -l < term.out) - 1))
"$pb" perft --field 2,6,8 --depth "$n" --positions > whole.out
[ "$n" -ge 1 ] && cmp -s term.out whole.out || fail "SIGTERM, perft --positions: the $n depths printed differ from a run to depth $n"
rm -rf term.out term.err term-ck term.pbt* whole.out term-batch.txt

# ---- memory the system refuses (200 MB of address space) ----
# The layered count keeps every position of a depth: (2;4;6) outgrows the
# limit after a few depths; it prints the depths it finished, as a run to
# that depth does, and says where memory ran out (exit 4, one line).
(ulimit -v 200000; "$pb" perft --field 2,4,6 --depth 9 --positions > oom.out 2> oom.err)
check "perft --positions, memory refused: exit 4" 4 $?
n=$(($(wc -l < oom.out) - 1))
contains "perft --positions, memory refused: named" "paperball: out of memory counting depth $((n + 1)): depths 1..$n counted" \
  "$(cat oom.err)"
"$pb" perft --field 2,4,6 --depth "$n" --positions > whole.out
[ "$n" -ge 1 ] && cmp -s oom.out whole.out || fail "perft --positions, memory refused: the $n depths printed differ"
rm -f oom.out oom.err whole.out

# ---- every command, standard output on a full disk: exit 5 ----
echo quit > quit.txt
full() { "$@" > /dev/full 2> full.err < quit.txt; echo $?; }
check "info > /dev/full" 5 "$(full "$pb" info)"
check "show > /dev/full" 5 "$(full "$pb" show)"
check "moves > /dev/full" 5 "$(full "$pb" moves)"
check "play > /dev/full" 5 "$(full "$pb" play $S)"
check "play --vs-solver > /dev/full" 5 "$(full "$pb" play --vs-solver $S)"
check "perft > /dev/full" 5 "$(full "$pb" perft $S --depth 2)"
check "solve > /dev/full" 5 "$(full "$pb" solve $S --quiet)"
check "solve --batch > /dev/full" 5 "$(echo "e2-e3" | "$pb" solve $S --batch - > /dev/full 2>/dev/null; echo $?)"
check "enumerate > /dev/full" 5 "$(full "$pb" enumerate $S --depth 2 --quiet)"
check "enumerate --csv > /dev/full" 5 "$(full "$pb" enumerate $S --depth 2 --csv --quiet)"
check "prove > /dev/full" 5 "$(full "$pb" prove --claim empty-count --field 2,2,2)"
check "bench > /dev/full" 5 "$(full "$pb" bench)"
check "tb build > /dev/full" 5 "$(full "$pb" tb build $S --out t.pbt --quiet)"
check "tb probe > /dev/full" 5 "$(full "$pb" tb probe t.pbt)"
check "--help > /dev/full" 5 "$(full "$pb" --help)"
check "--version > /dev/full" 5 "$(full "$pb" --version)"
check "solve --help > /dev/full" 5 "$(full "$pb" solve --help)"
contains "the write failure is named" "cannot write the output" "$(cat full.err)"
# A closed standard output: exit 5 at once, and no file takes its place.
rm -f closed.svg
"$pb" show --svg closed.svg >&- 2> closed.err; st=$?
check "closed stdout" 5 "$st"
[ ! -e closed.svg ] || fail "closed stdout: a file was written"
# An SVG into a missing directory: write failure.
check "svg into a missing directory" 5 "$(status "$pb" show --svg no-such-dir/a.svg)"

# ---- record files that are not text: exit 2, one line ----
mkdir -p adir
printf 'e7-e8\0e8-e9' > nul.txt
head -c 300 /bin/sh > binary.bin
for f in adir nul.txt binary.bin; do
  "$pb" show --record-file "$f" > /dev/null 2> rf.err; st=$?
  check "--record-file $f: status" 2 "$st"
  check "--record-file $f: one line" 1 "$(wc -l < rf.err)"
done
contains "directory named" "Is a directory" "$("$pb" show adir 2>&1)"
contains "NUL named" "NUL" "$("$pb" show nul.txt 2>&1)"

# ---- prove --out: a bad directory is refused before the work ----
"$pb" prove --out no-such-dir > /dev/null 2> out.err; st=$?
check "prove --out missing dir: status" 2 "$st"
contains "prove --out missing dir: named" "no-such-dir" "$(cat out.err)"
touch afile
check "prove --out a file" 2 "$(status "$pb" prove --out afile)"

# ---- each command takes only its own options ----
check "perft --svg" 2 "$(status "$pb" perft --svg a.svg)"
[ ! -e a.svg ] || fail "perft --svg wrote a file"
check "show --json" 2 "$(status "$pb" show --json)"
check "play --json" 2 "$(status "$pb" play --json)"
check "info --record" 2 "$(status "$pb" info --record e7-e8)"
check "prove --rules" 2 "$(status "$pb" prove --rules hockey)"
check "bench --threads alone" 2 "$(status "$pb" bench --threads 2)"
check "--dead-end with book rules" 2 "$(status "$pb" info --dead-end loss)"
check "--dead-end with hockey" 0 "$(status "$pb" info --rules hockey --dead-end loss)"
check "--record and --record-file" 2 "$(status "$pb" show --record e7-e8 --record-file x)"
check "--record and a file argument" 2 "$(status "$pb" show --record e7-e8 x)"
check "two file arguments" 2 "$(status "$pb" show x y)"
e=$("$pb" show --no-such 2>&1)
contains "unknown last option named" "unknown option '--no-such'" "$e"
check "unknown option: one line" 1 "$(echo "$e" | wc -l)"
e=$("$pb" solve --time-limit 2>&1)
contains "missing value named" "option --time-limit needs a value" "$e"
check "a flag with a value" 2 "$(status "$pb" info --json=yes)"
check "show -h" 0 "$(status "$pb" show -h)"
contains "show -h is the help" "usage: paperball show" "$("$pb" show -h)"
# --help lists the command's own options only.
h=$("$pb" perft --help)
contains "perft --help: --depth" "--depth D" "$h"
contains "perft --help: --threads" "--threads N" "$h"
case "$h" in *--svg*|*--mpi*|*--checkpoint*) fail "perft --help lists options perft does not take";; *) echo "ok   perft --help is its own";; esac
h=$("$pb" info --help)
case "$h" in *--record*|*--depth*) fail "info --help lists options info does not take";; *) echo "ok   info --help is its own";; esac
# The memory budget has one name, --memory, and --hash is its alias.
check "enumerate --hash" 0 "$(status "$pb" enumerate $S --depth 1 --hash 64M --quiet)"
check "solve --memory" 0 "$(status "$pb" solve $S --memory 1M --quiet)"
contains "solve --help: --memory" "--memory SIZE" "$("$pb" solve --help)"
# --quiet means the same everywhere: nothing on standard error.
"$pb" show $S --svg q.svg --quiet > /dev/null 2> q.err
check "show --quiet: nothing on stderr" 0 "$(wc -c < q.err)"
"$pb" solve $S --quiet > /dev/null 2> q.err
check "solve --quiet: nothing on stderr" 0 "$(wc -c < q.err)"

# ---- exit statuses: one table, in --help and the README ----
h=$("$pb" --help)
for s in 0 1 2 3 4 5 6; do
  contains "--help: status $s" "  $s  " "$h"
  grep -q "^| $s " "$root/README.md" || fail "README: no row for status $s"
done
check "stopped early: 3" 3 "$(status "$pb" solve --field 2,8,10 --time-limit 0.2 --quiet)"
check "over the memory budget: 4" 4 "$(status "$pb" enumerate --field 2,4,4 --depth 5 --memory 1M --quiet)"

# ---- --version, and version and commit in JSON and CSV ----
v=$("$pb" --version)
contains "--version" "paperball " "$v"
commit=$(echo "$v" | sed 's/.*(commit \(.*\))/\1/')
[ -n "$commit" ] || fail "--version names no commit"
for cmd in "info" "moves" "perft $S --depth 1" "solve $S --quiet" "enumerate $S --depth 1 --quiet" \
           "prove --claim empty-count --field 2,2,2" "tb stats t.pbt" "tb probe t.pbt"; do
  contains "$cmd --json: commit" "\"commit\":\"$commit\"" "$("$pb" $cmd --json)"
done
csv=$("$pb" enumerate $S --depth 1 --csv --quiet)
contains "CSV: version and commit columns" ",version,commit" "$(echo "$csv" | head -1)"
contains "CSV: the commit" ",$commit" "$(echo "$csv" | sed -n 2p)"
# The CSV's first columns are those of results/enumeration.csv; setback and
# dead end are empty outside hockey.
check "CSV columns as results/enumeration.csv" "$(head -1 "$root/results/enumeration.csv" | cut -d, -f1-6)" \
  "$(echo "$csv" | head -1 | cut -d, -f1-6)"
check "CSV: book has no setback" "book,2,2,2,," "$(echo "$csv" | sed -n 2p | cut -d, -f1-6)"
# Stopped by the memory budget: the finished depths are printed.
out=$("$pb" enumerate --field 2,4,4 --depth 5 --memory 1M --csv --quiet 2>/dev/null)
check "memory stop: depths 0..3 printed" "0 1 2 3" "$(echo "$out" | tail -n +2 | cut -d, -f7 | tr '\n' ' ' | sed 's/ $//')"

# ---- prove first-moves counts every route: (2;4;2) has more than 64 ----
routes=$("$pb" perft --field 2,4,2 --depth 1 | awk '$1 == 1 { print $2 }')
classes=$("$pb" solve --field 2,4,2 --json --quiet --first-turns | grep -o '"route_classes":[0-9]*' | cut -d: -f2)
contains "first-moves on (2;4;2): routes and classes as perft and solve count them" \
  "(2;4;2) $routes routes/$classes classes" "$("$pb" prove --claim first-moves --field 2,4,2)"
finish
