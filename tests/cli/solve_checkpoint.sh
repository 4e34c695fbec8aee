#!/usr/bin/env bash
# CLI tests of `solve --checkpoint FILE [--resume]`: a run stopped by
# SIGTERM, by SIGINT, by --time-limit or by kill -9, then resumed, gives the
# value and first-turn values of an uninterrupted run without a checkpoint
# (the reference); both algorithms read one file; damaged, mismatched or
# missing files are refused with one line and status 2; a checkpoint that
# could never be written is refused before the search (status 5).
set -u
. "$(dirname "$0")/lib/check.sh"
values() { python3 -c "import json,sys; d=json.load(sys.stdin); print(' '.join([d['value']] + [t['value'] for t in d.get('first_turns', [])]))"; }
# About 5 s on a quiet machine (--algo pn: 3 s); the stops below come well
# before, so a faster machine stops too.
field="--rules hockey --setback 1 --dead-end draw --field 2,4,12"

"$pb" solve $field --first-turns --json --quiet > ref.json
ref=$(values < ref.json)
line() { python3 -c "import json,sys; print(' '.join(json.load(sys.stdin)['pv']))"; }
case "$ref" in win*|draw*|loss*) echo "ok   reference: $ref";; *) fail "reference run: [$ref]";; esac

# SIGTERM half-way: status 3, what is proven printed and saved; --resume
# finishes with the reference's values, faster.
rm -f s.pbs
"$pb" solve $field --first-turns --json --quiet --checkpoint s.pbs --save-every 1 >part.json 2>err.txt &
pid=$!
sleep 0.7
kill -TERM $pid
wait $pid
check "SIGTERM: status 3" 3 $?
contains "SIGTERM: named" "stopped by SIGTERM" "$(cat err.txt)"
contains "SIGTERM: saved" "saved in s.pbs" "$(cat err.txt)"
python3 -c "import json; json.load(open('part.json'))" && echo "ok   SIGTERM: the partial answer is JSON" || fail "SIGTERM: no JSON"
out=$("$pb" solve $field --first-turns --json --quiet --checkpoint s.pbs --resume); st=$?
check "resume after SIGTERM: status" 0 $st
check "resume after SIGTERM = uninterrupted" "$ref" "$(echo "$out" | values)"
finished=$out
# A rerun from the finished file is all lookups: the value, the classes
# and the line of play (its positions are saved at the end, and the line
# takes a step the saved proofs know before any it would search): the line
# of the run that finished the file.  (Which line the search gives depends
# on what its table holds: with --algo pn the first step known to keep the
# value is taken; a resumed run's table holds other proofs than an
# uninterrupted run's.)
out=$("$pb" solve $field --first-turns --json --quiet --checkpoint s.pbs --resume)
check "rerun = uninterrupted" "$ref" "$(echo "$out" | values)"
check "rerun: no node searched" 0 "$(echo "$out" | python3 -c "import json,sys; print(json.load(sys.stdin)['nodes'])")"
check "rerun: the line of the run that finished the file" "$(echo "$finished" | line)" "$(echo "$out" | line)"
pn=$("$pb" solve $field --algo pn --json --quiet --checkpoint s.pbs --resume | values)
check "--algo pn reads the same file" "${ref%% *}" "$pn"

# SIGINT and --time-limit save alike; --algo pn stopped and resumed.
rm -f i.pbs
"$pb" solve $field --first-turns --json --quiet --checkpoint i.pbs >/dev/null 2>err.txt &
pid=$!
sleep 0.5
kill -INT $pid
wait $pid
check "SIGINT: status 3" 3 $?
contains "SIGINT: saved" "saved in i.pbs" "$(cat err.txt)"
check "resume after SIGINT: value" "${ref%% *}" "$("$pb" solve $field --json --quiet --checkpoint i.pbs --resume | values)"
rm -f t.pbs
st=$(status "$pb" solve $field --first-turns --quiet --checkpoint t.pbs --time-limit 0.5)
check "--time-limit: status 3" 3 "$st"
[ -s t.pbs ] && echo "ok   --time-limit: saved" || fail "--time-limit: no file"
check "resume after --time-limit" "$ref" "$("$pb" solve $field --first-turns --json --quiet --checkpoint t.pbs --resume | values)"
rm -f p.pbs
st=$(status "$pb" solve $field --algo pn --quiet --checkpoint p.pbs --time-limit 0.3)
check "--algo pn --time-limit: status 3" 3 "$st"
check "--algo pn resumed" "${ref%% *}" "$("$pb" solve $field --algo pn --json --quiet --checkpoint p.pbs --resume | values)"

# kill -9 loses at most the last --save-every interval: the file of the
# last save is whole and resumes.
rm -f k.pbs
"$pb" solve $field --first-turns --quiet --checkpoint k.pbs --save-every 0.5 >/dev/null 2>&1 &
pid=$!
sleep 2
kill -KILL $pid
wait $pid 2>/dev/null
[ -s k.pbs ] && echo "ok   kill -9: a saved file" || fail "kill -9: no file"
check "resume after kill -9" "$ref" "$("$pb" solve $field --first-turns --json --quiet --checkpoint k.pbs --resume | values)"

# Refusals: one line, status 2.
python3 - <<'EOF'
b = bytearray(open('s.pbs', 'rb').read())
b[len(b) // 2] ^= 0x40
open('bad.pbs', 'wb').write(b)
open('cut.pbs', 'wb').write(open('s.pbs', 'rb').read()[:-30])
EOF
for args in "$field --checkpoint bad.pbs --resume" "$field --checkpoint cut.pbs --resume" \
            "--field 2,2,10 --checkpoint s.pbs --resume" "--rules book --field 2,4,12 --checkpoint s.pbs --resume" \
            "$field --record c7-c6 --checkpoint s.pbs --resume" "$field --checkpoint missing.pbs --resume" \
            "$field --resume" "$field --checkpoint s.pbs" "$field --checkpoint s.pbs --resume --save-every 0"; do
  e=$("$pb" solve $args --quiet 2>&1 >/dev/null); st=$?
  check "refused: $args" 2 $st
  check "one line: $args" 1 "$(printf '%s\n' "$e" | wc -l)"
done
# A checkpoint that could never be saved (its directory missing, or a
# file where a directory should be): said before the search, one line,
# status 5 (the output could not be written), nothing solved.  On a field
# no solve finishes within the limit, so a late refusal would show a
# stopped search's report first.
for ck in no-such-dir/x.pbs s.pbs/x.pbs; do
  out=$("$pb" solve --field 2,6,6 --checkpoint "$ck" --time-limit 3 2> err.txt); st=$?
  check "unwritable $ck: status 5" 5 $st
  check "unwritable $ck: one line" "1" "$(wc -l < err.txt)"
  contains "unwritable $ck: named" "cannot write $ck" "$(cat err.txt)"
  check "unwritable $ck: nothing searched" "" "$out"
done
contains "damaged named" "damaged" "$("$pb" solve $field --checkpoint bad.pbs --resume 2>&1)"
contains "other position named" "another position" "$("$pb" solve $field --record c7-c6 --checkpoint s.pbs --resume 2>&1)"
contains "other field named" "another rule set or field" "$("$pb" solve --field 2,2,10 --checkpoint s.pbs --resume 2>&1)"
finish
