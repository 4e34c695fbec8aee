#!/bin/bash
# prove_checkpoint.sh - `paperball prove --checkpoint FILE --resume`: a run
# stopped by --time-limit or by SIGTERM (exit 3) and then resumed prints
# the same report, byte for byte, as a run never stopped (the seconds each
# field took aside), and writes the same counterexample diagram; a
# checkpoint of another run, or a damaged one, is refused in one line with
# exit 2.
# Usage: bash prove_checkpoint.sh /path/to/paperball   (run from a scratch directory)
. "$(dirname "$0")/lib/check.sh"
rm -rf -- *.ckpt *.ckpt.tmp d1 d2 # a rerun starts from no checkpoint

# Three walking claims over the four default fields, four turns deep: some
# three seconds on a quiet machine, each field a unit of the checkpoint.
walks=(--claim no-draws,dead-end-odd,moves-converted --depth 4)
# The timings are the only figures that may differ between two runs.
norm() { sed -E 's/[0-9]+\.[0-9]+ s\b/T s/g; s/"seconds": *[0-9.]+/"seconds": T/g; s#^svg +[^ ]*/#svg DIR/#' "$1"; }
same() { # what reference resumed
    if cmp -s <(norm "$2") <(norm "$3"); then echo "ok   $1"
    else fail "$1: the resumed report differs from the uninterrupted one: $(diff <(norm "$2") <(norm "$3") | head -5)"; fi
}

"$pb" prove "${walks[@]}" >full.txt 2>/dev/null
check "uninterrupted run" 0 $?

# Stopped by the time limit, then resumed.
# (The limits here are a fraction of the run on a quiet machine, so that a
# faster machine still stops half-way.)
"$pb" prove "${walks[@]}" --time-limit 0.7 --checkpoint t.ckpt >stop.txt 2>stop.err
check "time limit: stopped" 3 $?
contains "time limit: the closing line names the checkpoint" "saved in t.ckpt (go on with --resume)" "$(cat stop.err)"
"$pb" prove "${walks[@]}" --checkpoint t.ckpt --resume >res.txt 2>res.err
check "time limit: resumed" 0 $?
contains "time limit: resumed from the checkpoint" "prove: resumed from t.ckpt" "$(cat res.err)"
same "time limit: resumed = uninterrupted" full.txt res.txt
# A finished checkpoint resumed again runs nothing and prints the same.
"$pb" prove "${walks[@]}" --checkpoint t.ckpt --resume >again.txt 2>again.err
check "finished checkpoint: status" 0 $?
contains "finished checkpoint: every claim saved" "3 of 3 claims finished" "$(cat again.err)"
same "finished checkpoint: same report" full.txt again.txt

# Stopped by SIGTERM in the middle of a claim: the checkpoint is written at
# the start, and again after each field; the signal comes once the file has
# changed after it was first seen (the first two fields take milliseconds,
# so one or two fields are saved, or on a loaded machine, where the file may
# first be seen with two saved, three; the third takes a second or more).
"$pb" prove "${walks[@]}" --checkpoint s.ckpt >stop.txt 2>stop.err &
pid=$!
for _ in $(seq 600); do [ -f s.ckpt ] && break; sleep 0.05; done
size0=$(stat -c %s s.ckpt 2>/dev/null || echo 0)
for _ in $(seq 600); do [ "$(stat -c %s s.ckpt 2>/dev/null || echo 0)" != "$size0" ] && break; sleep 0.05; done
kill -TERM $pid
wait $pid
check "SIGTERM: stopped" 3 $?
contains "SIGTERM: the closing line says why" "stopped by SIGTERM" "$(cat stop.err)"
contains "SIGTERM: the claims after it not started" "not checked (SIGTERM came first)" "$(cat stop.txt)"
"$pb" prove "${walks[@]}" --checkpoint s.ckpt --resume >res.txt 2>res.err
check "SIGTERM: resumed" 0 $?
if grep -Eq '0 of 3 claims finished, no-draws from field [234]$' res.err; then echo "ok   SIGTERM: resumed mid-claim"
else fail "SIGTERM: not resumed in the middle of the first claim: $(cat res.err)"; fi
same "SIGTERM: resumed = uninterrupted" full.txt res.txt

# A claim that fails, with the shortest counterexample kept over the fields
# (the state a claim carries from field to field), its diagram and JSON.
lm=(--claim empty-count,last-move-red,first-moves)
mkdir -p d1 d2
"$pb" prove "${lm[@]}" --json --out d1 >full.json 2>/dev/null
check "last-move-red: fails" 6 $?
"$pb" prove "${lm[@]}" --json --time-limit 0.2 --checkpoint l.ckpt >stop.json 2>/dev/null
check "last-move-red: stopped" 3 $?
"$pb" prove "${lm[@]}" --json --out d2 --checkpoint l.ckpt --resume >res.json 2>/dev/null
check "last-move-red: resumed" 6 $?
same "last-move-red: resumed JSON = uninterrupted" full.json res.json
if cmp -s d1/counterexample-last-move-red.svg d2/counterexample-last-move-red.svg; then echo "ok   same diagram"
else fail "last-move-red: the resumed run's diagram differs"; fi
# The checkpoint holds results, not text: the same run resumes as text too.
"$pb" prove "${lm[@]}" >full.txt 2>/dev/null
"$pb" prove "${lm[@]}" --checkpoint l.ckpt --resume >res.txt 2>/dev/null
same "last-move-red: resumed as text = uninterrupted" full.txt res.txt

# Refused, one line, exit 2: another run's checkpoint (other claims, depth,
# field), a damaged one, one cut short, another kind of file, an existing
# file without --resume, --resume without a file.
refused() { # what expected-words command...
    local what="$1" words="$2"
    shift 2
    "$@" >/dev/null 2>err.txt
    check "$what: exit" 2 $?
    check "$what: one line" 1 "$(wc -l <err.txt)"
    contains "$what: says why" "$words" "$(cat err.txt)"
}
refused "other claims" "a checkpoint of another run" "$pb" prove --claim no-draws --depth 4 --checkpoint t.ckpt --resume
refused "other depth" "a checkpoint of another run" "$pb" prove "${walks[@]:0:2}" --depth 3 --checkpoint t.ckpt --resume
refused "other field" "another rule set or field" "$pb" prove "${walks[@]}" --field 2,2,2 --checkpoint t.ckpt --resume
cp t.ckpt bad.ckpt
flip_byte bad.ckpt 300
refused "damaged" "damaged" "$pb" prove "${walks[@]}" --checkpoint bad.ckpt --resume
head -c 120 t.ckpt >cut.ckpt
refused "cut short" "cut.ckpt" "$pb" prove "${walks[@]}" --checkpoint cut.ckpt --resume
"$pb" solve --field 2,2,2 --checkpoint solve.ckpt >/dev/null 2>&1
refused "a solve checkpoint" "not the kind of file expected" "$pb" prove "${walks[@]}" --checkpoint solve.ckpt --resume
refused "exists" "add --resume" "$pb" prove "${walks[@]}" --checkpoint t.ckpt
refused "resume alone" "--resume needs --checkpoint" "$pb" prove "${walks[@]}" --resume

# A checkpoint that cannot be written is found before any claim runs: one
# line, exit 5, nothing printed.
"$pb" prove --claim empty-count --checkpoint no-such-dir/x.ckpt >out.txt 2>err.txt
check "unwritable checkpoint: exit" 5 $?
check "unwritable checkpoint: one line" 1 "$(wc -l <err.txt)"
check "unwritable checkpoint: no report" 0 "$(wc -c <out.txt)"

finish
