#!/bin/bash
# tb.sh - `paperball tb` from the command line: build, verify, probe and
# stats of small tablebases; probe values against `paperball solve`; the
# stop and resume of a build under a memory budget; damaged, foreign and
# mismatched files refused with one line and exit status 2.
# Usage: bash tb.sh /path/to/paperball   (run in a scratch directory)
. "$(dirname "$0")/lib/check.sh"

# A field whose games last several turns: book (2;2;4).
"$pb" tb build --field 2,2,4 --out b.pbt --quiet --threads 2 > build.txt
check "build exit status" 0 $?
contains "build: positions = enumerate's total" "= 46205 positions" "$(cat build.txt)"
check "verify" 0 "$(status "$pb" tb verify b.pbt --threads 2)"
contains "verify says so" "every entry holds" "$("$pb" tb verify b.pbt)"

# The probe's value at the start and after two turns equals the solver's.
for rec in "" "1. b4-b5" "1. b4-b5 b5-c5-b6"; do
  args=(); [ -n "$rec" ] && args=(--record "$rec")
  want=$("$pb" solve --field 2,2,4 "${args[@]}" --json | grep -o '"to_move":"[a-z]*","value":"[a-z]*"' | head -1 |
         sed 's/.*"value":"//; s/"//')
  got=$("$pb" tb probe b.pbt "${args[@]}" --json | sed 's/^{[^}]*"value":"\([a-z]*\)".*/\1/')
  case "$want" in win|draw|loss) ;; *) fail "solve gave no value at '$rec'";; esac
  check "probe = solve at '$rec'" "$want" "$got"
done
# The probe lists every turn: as many as `moves` does, best first.
nt=$("$pb" moves --field 2,2,4 --json | sed 's/.*"count":\([0-9]*\).*/\1/')
got=$("$pb" tb probe b.pbt --json | grep -o '"route"' | wc -l)
check "probe lists every turn" "$nt" "$got"
contains "probe text" "value        loss in 5 for Top" "$("$pb" tb probe b.pbt)"

# A build stopped by its time limit (exit 3, checked between layers) keeps
# its layers; the rerun goes on from them and writes the same file.
rm -f tl.pbt*
# An --out that could never be written: said before the build, one line, status 5.
msg=$("$pb" tb build --field 2,2,4 --out no-such-dir/t.pbt 2>&1 > /dev/null); st=$?
check "unwritable --out: status 5" 5 $st
check "unwritable --out: one line" "paperball: cannot write no-such-dir/t.pbt: No such file or directory" "$msg"
check "time limit (exit status 3)" 3 "$(status "$pb" tb build --field 2,2,4 --out tl.pbt --time-limit 0.000001 --quiet)"
[ -e tl.pbt ] && fail "a stopped build wrote its file"
ls tl.pbt.k* > /dev/null 2>&1 || fail "a stopped build kept no layer file"
check "rerun after the time limit" 0 "$(status "$pb" tb build --field 2,2,4 --out tl.pbt --quiet)"
cmp -s tl.pbt b.pbt || fail "the resumed build differs from the direct one"

# Without --quiet the build first estimates its layers, which takes a
# minute on book (2;6;8): the time limit counts from the start, so it stops
# the estimate too (exit 3, one line naming the limit, no layer written).
rm -f te.pbt*
msg=$(timeout 60 "$pb" tb build --field 2,6,8 --out te.pbt --time-limit 0.5 2>&1 > /dev/null)
check "time limit in the estimate (exit status 3)" 3 $?
check "... its last line" "paperball: stopped by the time limit during the estimate, before the build began" \
  "$(printf '%s\n' "$msg" | tail -1)"
ls te.pbt* > /dev/null 2>&1 && fail "a build stopped in its estimate wrote a file"

# The estimate of book (2;6;8) holds some 700 MB at once: under a 300 MB
# address-space limit it runs out of memory and says so (exit 4, one line).
msg=$( (ulimit -v 300000; "$pb" tb estimate --field 2,6,8) 2>&1 > /dev/null)
check "estimate out of memory (exit status 4)" 4 $?
check "... one line" "paperball: out of memory before the estimate was finished" "$msg"

# Memory the system refuses (300 MB of address space; book (2;4;4) needs
# gigabytes by layer 7): exit 4, one line naming it, the layers found kept.
rm -f tm.pbt*
msg=$( (ulimit -v 300000; "$pb" tb build --field 2,4,4 --out tm.pbt --quiet --time-limit 120) 2>&1 > /dev/null)
check "build out of memory (exit status 4)" 4 $?
case $msg in
  "paperball: stopped: memory ran out "*"; the layers found so far are kept, rerun with more memory to go on") ;;
  *) fail "build out of memory: not the one line expected: $msg" ;;
esac
ls tm.pbt.k* > /dev/null 2>&1 || fail "build out of memory: no layer file kept"
rm -f tm.pbt*

# The time limit is also looked at within a layer pass (every 1024
# positions): hockey (2;4;4) takes seconds, its passes of the later layers
# each over a second, so a limit of 1.5 s stops it in the middle of one
# (or between layers, on a fast machine); either way the rerun goes on
# from the layers kept and writes the file of a direct build.
rm -f hl.pbt* hd.pbt*
check "time limit in a layer (exit status 3)" 3 \
  "$(status "$pb" tb build --rules hockey --field 2,4,4 --setback 0 --threads 2 --out hl.pbt --time-limit 1.5 --quiet)"
check "rerun after it" 0 "$(status "$pb" tb build --rules hockey --field 2,4,4 --setback 0 --out hl.pbt --quiet)"
"$pb" tb build --rules hockey --field 2,4,4 --setback 0 --out hd.pbt --quiet > /dev/null
cmp -s hl.pbt hd.pbt || fail "the build resumed after a stop within a layer differs from the direct one"

# SIGTERM (what timeout, kill and Slurm send) and Ctrl-C stop a build as its
# time limit does: exit 3, the finished layers kept, the rerun the same file.
rm -f hs.pbt*
"$pb" tb build --rules hockey --field 2,4,4 --setback 0 --threads 2 --out hs.pbt --quiet 2> sig.txt &
tbpid=$!
sleep 1.5
kill -TERM $tbpid
wait $tbpid
check "SIGTERM: exit status 3" 3 $?
contains "SIGTERM: says so" "stopped by a signal" "$(cat sig.txt)"
[ -e hs.pbt ] && fail "a build stopped by SIGTERM wrote its file"
check "rerun after SIGTERM" 0 "$(status "$pb" tb build --rules hockey --field 2,4,4 --setback 0 --out hs.pbt --quiet)"
cmp -s hs.pbt hd.pbt || fail "the build resumed after SIGTERM differs from the direct one"

# Stats: per-layer counts and the longest forced win, drawn.
"$pb" tb stats b.pbt --svg win.svg > stats.txt
check "stats exit status" 0 $?
contains "stats: longest win" "longest forced win: win in" "$(cat stats.txt)"
grep -q '<svg' win.svg || fail "stats --svg wrote no SVG"

# A build stopped by its memory budget (exit 1), then rerun: the same file.
check "memory stop (exit status 4)" 4 "$(status "$pb" tb build --field 2,2,2 --out m.pbt --memory 2K --quiet)"
check "rerun" 0 "$(status "$pb" tb build --field 2,2,2 --out m.pbt --quiet)"
"$pb" tb build --field 2,2,2 --out m2.pbt --quiet > /dev/null
cmp -s m.pbt m2.pbt || fail "resumed build differs from a fresh one"

# Damaged and foreign files: one line, exit status 2.
cp b.pbt d.pbt
flip_byte d.pbt 300
check "damaged: verify" 2 "$(status "$pb" tb verify d.pbt)"
check "damaged: probe" 2 "$(status "$pb" tb probe d.pbt)"
check "damaged: one line" 1 "$("$pb" tb verify d.pbt 2>&1 | wc -l)"
head -c 200 b.pbt > cut.pbt
check "cut short" 2 "$(status "$pb" tb stats cut.pbt)"
echo "not a tablebase" > junk.pbt
check "foreign file" 2 "$(status "$pb" tb probe junk.pbt)"
check "missing file" 2 "$(status "$pb" tb verify nothing.pbt)"
check "a position of another field" 2 "$(status "$pb" tb probe m.pbt --record "1. b3-c4")"
check "triple refused" 2 "$(status "$pb" tb build --rules triple --field 2,4,4 --out t.pbt)"
check "no --out" 2 "$(status "$pb" tb build --field 2,2,2)"
check "unknown subcommand" 2 "$(status "$pb" tb frobnicate)"
finish
