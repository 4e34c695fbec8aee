#!/usr/bin/env bash
# CLI tests of `solve --proofs FILE`: the proofs of another solve's
# checkpoint (any root, same rules and field) read into this one.  Along a
# game, each position solved with the proofs of the one after it gives
# alpha-beta's values without any proofs (a second method), first-turn
# classes too; a checkpoint saved with them carries them on; the proofs are
# used (the start of book (2;6;4) after its first turn's position is
# proven: a few nodes instead of millions); files of other rules or field,
# damaged or missing, and --proofs where it has no meaning are refused with
# one line and status 2.
set -u
. "$(dirname "$0")/lib/check.sh"
# Checkpoints a run before left in this scratch directory would be refused
# as existing.
rm -f ./*.ck
field="--field 2,4,6"
rec='c5-c6 c6-d7 d7-e7-d8-c7 c7-d7-c8 c8-d8-d7-e6-d6 d6-c7-c8-b8-a7-b6 b6-c6-d6-c5-b6-c7-b8-b7'
read -r -a t <<< "$rec"
n=${#t[@]}
# values: the value and the first-turn classes' values of a JSON answer.
values() { python3 -c "import json,sys; d=json.load(sys.stdin); print(' '.join([d['value']] + [c['value'] for c in d.get('first_turns', [])]))"; }
nodes() { python3 -c "import json,sys; print(json.load(sys.stdin)['nodes'])"; }

# Along the game from its end: position k with the proofs of position k+1
# (whose checkpoint holds those of k+2 and on), against alpha-beta alone.
# Classes where alpha-beta lists them in seconds, the value alone before.
prev=""
for ((k = n; k >= 1; k--)); do
  ft=""
  [ "$k" -ge 4 ] && ft=--first-turns
  ab=$("$pb" solve $field --record "${t[*]:0:k}" --algo ab $ft --quiet --json | values)
  rm -f "p$k.ck"
  out=$("$pb" solve $field --record "${t[*]:0:k}" $ft --json --checkpoint "p$k.ck" ${prev:+--proofs "$prev"} 2> "err$k.txt")
  check "after $k turns with the proofs of the next: status" 0 $?
  check "after $k turns with the proofs of the next = alpha-beta" "$ab" "$(echo "$out" | values)"
  [ -n "$prev" ] && contains "after $k turns: the file read is said" "proven positions from $prev" "$(cat "err$k.txt")"
  prev=p$k.ck
done
# The checkpoint of position 1 carries what it read: position 2's root is
# in it, so position 2 is answered without a search.
out=$("$pb" solve $field --record "${t[*]:0:2}" --json --quiet --proofs p1.ck)
check "proofs carried on: position 2 from position 1's file, no node" 0 "$(echo "$out" | nodes)"
check "proofs carried on: its value" "$("$pb" solve $field --record "${t[*]:0:2}" --algo ab --quiet --json | values)" \
  "$(echo "$out" | values)"
# Two files, one of them read twice: the same answer.
out=$("$pb" solve $field --record "${t[*]:0:3}" --json --quiet --proofs p5.ck --proofs p4.ck --proofs p5.ck)
check "three --proofs: value" "$("$pb" solve $field --record "${t[*]:0:3}" --algo ab --quiet --json | values)" \
  "$(echo "$out" | values)"
# --algo ab reads them too.
out=$("$pb" solve $field --record "${t[*]:0:4}" --algo ab --first-turns --json --quiet --proofs p5.ck)
check "--algo ab with --proofs: values" "$("$pb" solve $field --record "${t[*]:0:4}" --algo ab --first-turns --quiet --json | values)" \
  "$(echo "$out" | values)"

# The proofs are used: book (2;6;4)'s start wins by d4-e4 (its best turn,
# the line of results/solved.md); with the proof that the position after
# it is lost for Bottom, the start is a win in a handful of nodes.
"$pb" solve --field 2,6,4 --record d4-e4 --quiet --json --checkpoint one.ck > one.json
check "book 2,6,4 after d4-e4: Bottom loses" loss "$(values < one.json)"
alone=$("$pb" solve --field 2,6,4 --quiet --json | nodes)
out=$("$pb" solve --field 2,6,4 --quiet --json --proofs one.ck)
check "book 2,6,4 with the proofs of d4-e4: win" win "$(echo "$out" | values)"
used=$(echo "$out" | nodes)
[ "$used" -lt 100 ] && [ "$alone" -gt 100000 ] && echo "ok   the proofs are used: $used nodes against $alone" ||
  fail "the proofs are not used: $used nodes against $alone"

# Refusals: one line, status 2.  A checkpoint of another position is read
# by --proofs but still refused by --resume (that would be a mistake).
python3 - << 'EOF'
b = bytearray(open('p5.ck', 'rb').read())
b[len(b) // 2] ^= 0x40
open('bad.ck', 'wb').write(b)
EOF
"$pb" solve --rules hockey --setback 1 --field 2,4,6 --quiet --json --checkpoint hockey.ck > /dev/null &&
  [ -s hockey.ck ] || fail "no hockey checkpoint"
args16=""
for i in $(seq 17); do args16="$args16 --proofs p5.ck"; done
for args in "$field --proofs missing.ck" "$field --proofs bad.ck" "--field 2,4,8 --proofs p5.ck" \
  "--rules hockey --setback 1 $field --proofs p5.ck" "$field --proofs hockey.ck" "$field --proofs" \
  "$field --batch p5.ck --proofs p5.ck" "$field --shortest --proofs p5.ck" "$field $args16" \
  "$field --record c5-c6 --checkpoint p5.ck --resume"; do
  e=$("$pb" solve $args --quiet 2>&1 > /dev/null)
  st=$?
  check "refused: ${args:0:70}" 2 $st
  check "one line: ${args:0:70}" 1 "$(printf '%s\n' "$e" | wc -l)"
done
contains "damaged named" "damaged" "$("$pb" solve $field --proofs bad.ck 2>&1)"
contains "other field named" "another rule set or field" "$("$pb" solve --field 2,4,8 --proofs p5.ck 2>&1)"
finish
