#!/bin/bash
# prove.sh - `paperball prove`: output per claim, exit statuses (0 holds,
# 6 a claim fails, 2 bad input), counterexample SVGs, JSON.
# Usage: bash prove.sh /path/to/paperball   (run from a scratch directory)
. "$(dirname "$0")/lib/check.sh"

expect_status() { # expected-status description command...
    local want="$1" what="$2"; shift 2
    "$@" >out.txt 2>err.txt
    local got=$?
    [ "$got" = "$want" ] || fail "$what: exit $got, expected $want ($(head -c 300 err.txt))"
}

expect_status 0 "--help" "$pb" prove --help
grep -q 'last-move-red' out.txt || fail "--help does not list the claims"

expect_status 2 "unknown claim" "$pb" prove --claim no-such-claim
grep -q '^paperball: unknown claim' err.txt || fail "unknown claim: no one-line error"
[ "$(wc -l <err.txt)" = 1 ] || fail "unknown claim: error is not one line"
expect_status 2 "bad field" "$pb" prove --claim empty-count --field 3,6,8
expect_status 2 "other rules" "$pb" prove --rules hockey --claim no-draws
expect_status 2 "claim and all" "$pb" prove --claim empty-count --all
expect_status 2 "stray argument" "$pb" prove foo
expect_status 2 "bad depth" "$pb" prove --depth x

expect_status 0 "empty-count on (2;6;8)" "$pb" prove --claim empty-count --field 2,6,8
grep -q '^verdict    holds' out.txt || fail "empty-count: no 'holds' verdict"
grep -q '^statement' out.txt && grep -q '^method' out.txt || fail "empty-count: statement/method missing"

expect_status 0 "first-moves on (2;6;8)" "$pb" prove --claim first-moves --field 2,6,8
grep -q 'holds' out.txt || fail "first-moves: not holding"

# first-moves counts every first route, however many: on (2;4;2) as many as
# `moves` lists (136, more than any fixed cap).
"$pb" prove --claim first-moves --field 2,4,2 > out.txt 2>&1
n=$("$pb" moves --field 2,4,2 | tail -n 1 | awk '{print $1}')
grep -q "(2;4;2) $n routes" out.txt || fail "first-moves on (2;4;2): not $n routes: $(grep fields out.txt)"

# The book's last-move claim fails on (2;2;2): a counterexample record and its SVG.
mkdir -p cx
expect_status 6 "last-move-red on (2;2;2)" "$pb" prove --claim last-move-red --field 2,2,2 --out cx
grep -q '^verdict    FAILS' out.txt || fail "last-move-red: no FAILS verdict"
grep -q '^record .*b3-' out.txt || fail "last-move-red: no game record from the centre b3"
[ -s cx/counterexample-last-move-red.svg ] || fail "last-move-red: no SVG written"
grep -q '<svg' cx/counterexample-last-move-red.svg || fail "last-move-red: SVG is not SVG"
# The exact statement holds on the same field, exhaustively.
expect_status 0 "last-move-exact on (2;2;2)" "$pb" prove --claim last-move-exact --field 2,2,2
grep -q 'complete (exhaustive)' out.txt || fail "last-move-exact: not exhaustive on (2;2;2)"

# Several claims, JSON.
expect_status 0 "json" "$pb" prove --claim no-draws,dead-end-odd --field 2,2,2 --json
if command -v python3 >/dev/null; then
    python3 -c 'import json,sys; d=json.load(open("out.txt")); assert d["all_hold"] is True; assert [c["claim"] for c in d["claims"]]==["no-draws","dead-end-odd"]; assert d["claims"][0]["fields"][0]["complete"] is True' \
        || fail "json: not valid or wrong content"
fi

# A depth limit: checked, but not exhaustive -> open, exit 0.
expect_status 0 "depth" "$pb" prove --claim moves-converted --field 2,2,4 --depth 2
grep -q 'INCOMPLETE' out.txt || fail "depth: field not marked incomplete"
grep -q '^verdict    open' out.txt || fail "depth: verdict not open"

# A time limit: the walks cut short, the claims after it not started, exit 3;
# the JSON names the claims not checked.  (The whole run takes minutes.)
expect_status 3 "time limit" "$pb" prove --time-limit 0.5
grep -q 'not checked (the time limit came first)' out.txt || fail "time limit: no claim reported as not checked"
grep -q '^paperball: stopped by the time limit' err.txt || fail "time limit: no one-line note"
expect_status 3 "time limit, json" "$pb" prove --time-limit 0.5 --json
if command -v python3 >/dev/null; then
    python3 -c 'import json; d=json.load(open("out.txt")); assert d["all_hold"] is False; assert d["not_checked"] >= 1' \
        || fail "time limit json: not valid or wrong content"
fi
expect_status 2 "bad time limit" "$pb" prove --time-limit 0

# Memory that runs out in a walk (the step walk of (2;4;4) holds some 2 GB;
# here 150 MB of address space): the field is reported incomplete, no
# crash, and no verdict rests on it.
(ulimit -v 150000; "$pb" prove --field 2,4,4 --claim moves-converted --time-limit 60 > out.txt 2> err.txt)
check "memory runs out in a walk: exit 0 (verdict open)" 0 $?
grep -q 'INCOMPLETE (memory ran out)' out.txt || fail "memory runs out in a walk: the field does not say so"
grep -q '^verdict    open' out.txt || fail "memory runs out in a walk: the verdict is not open"

# The odd/even map (figure 4 of the book).
expect_status 0 "odd map" "$pb" prove --odd --field 2,6,8 --svg odd.svg
grep -q 'C' out.txt || fail "odd map: no centre"
odd=$("$pb" info --field 2,6,8 | awk '$1=="odd"{print $2}')
[ "$(grep -c '<circle class="odd"' odd.svg)" = "$odd" ] || fail "odd map: red nodes differ from 'info' odd count $odd"

finish
