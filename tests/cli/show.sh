#!/bin/bash
# show.sh - command-line checks of `paperball show`: text and SVG output,
# record sources, exit statuses.  Usage: bash show.sh /path/to/paperball
set -u
. "$(dirname "$0")/lib/check.sh"
PB=$pb
# expect STATUS CMD...: runs CMD, output in out.txt / err.txt, checks the status
expect() {
    local want=$1; shift
    "$@" >out.txt 2>err.txt
    local got=$?
    [ "$got" -eq "$want" ] || fail "exit $got, wanted $want: $* ($(head -c 300 err.txt))"
}

# Help.
expect 0 "$PB" show --help
grep -q 'usage: paperball show' out.txt || fail "show --help has no usage line"
grep -q -- '--svg FILE' out.txt || fail "show --help does not describe --svg"

# The start of (2;6;8): 11 node rows, the ball on d6, the result line.
expect 0 "$PB" show
[ "$(grep -c '^ *[0-9]\+  ' out.txt)" -eq 11 ] || fail "start diagram does not have 11 numbered rows"
grep -q '^ 6  #   \.   \.   \*   \.   \.   #$' out.txt || fail "ball not on d6 in the start diagram"
grep -q '^    a   b   c   d   e   f   g$' out.txt || fail "column letters a..g missing"
grep -q '^book (2;6;8); 0 turns; game goes on, Top to move$' out.txt || fail "result line of the start"

# Odd nodes: as many 'o' above the letters as `info` reports odd nodes.
expect 0 "$PB" show --odd
odd=$(head -n -2 out.txt | tr -cd 'o' | wc -c)
want=$("$PB" info --json | sed 's/.*"odd":\([0-9]*\).*/\1/')
[ "$odd" -eq "$want" ] || fail "--odd marks $odd nodes, info says $want"
expect 0 "$PB" show --odd --unicode
odd=$(head -n -2 out.txt | grep -o '•' | wc -l)
[ "$odd" -eq "$want" ] || fail "--odd --unicode marks $odd nodes, info says $want"

# A record in each of its three forms gives the same picture.
rec='d6-e7 e7-e8 e8-d7 d7-d6-c5'
expect 0 "$PB" show --record "$rec"
cp out.txt a.txt
grep -q '^book (2;6;8); 4 turns; game goes on, Top to move$' a.txt || fail "result line after 4 turns"
printf '%s\n' "$rec" >game.txt
expect 0 "$PB" show game.txt
cmp -s a.txt out.txt || fail "show FILE differs from --record"
expect 0 "$PB" show --record-file game.txt
cmp -s a.txt out.txt || fail "show --record-file differs from --record"
"$PB" show - <game.txt >out.txt 2>err.txt || fail "show - (stdin) failed"
cmp -s a.txt out.txt || fail "show - differs from --record"
# 5 drawn segments: 3 + 1 + 1 (as '-' triples, '|', '/', '\').
segs=$(head -n -2 a.txt | sed 's/---/-/g' | tr -cd -- '-|/\\' | wc -c)
[ "$segs" -eq 5 ] || fail "text diagram shows $segs segments, wanted 5"
expect 0 "$PB" show --unicode --record "$rec"
grep -q '●' out.txt || fail "--unicode has no ball"
grep -q '━' out.txt || fail "--unicode has no heavy border"
expect 0 "$PB" show --color --record "$rec"
grep -q $'\033\\[34m' out.txt || fail "--color has no blue (Top) lines"
grep -q $'\033\\[31m' out.txt || fail "--color has no red (Bottom) lines"

# SVG: written, announced on stderr, well formed, one <line> per segment.
expect 0 "$PB" show --odd --svg pic.svg --record "$rec"
[ -s pic.svg ] || fail "--svg wrote nothing"
grep -q 'wrote pic.svg' err.txt || fail "--svg not announced on stderr"
grep -q '^book (2;6;8); 4 turns' out.txt || fail "--svg: no result line"
[ "$(grep -c '<line ' pic.svg)" -eq 5 ] || fail "SVG has $(grep -c '<line ' pic.svg) lines, wanted 5"
[ "$(grep -c 'class="odd"' pic.svg)" -eq "$want" ] || fail "SVG odd circles != $want"
# Top played d6-e7 and e8-d7, Bottom e7-e8 and d7-d6-c5.
[ "$(grep -c 'class="seg top' pic.svg)" -eq 2 ] || fail "SVG: Top drew 2 segments"
[ "$(grep -c 'class="seg bottom' pic.svg)" -eq 3 ] || fail "SVG: Bottom drew 3 segments"
if command -v xmllint >/dev/null; then
    xmllint --noout pic.svg 2>err.txt || fail "xmllint rejects the SVG: $(head -c 300 err.txt)"
else
    grep -q '</svg>' pic.svg || fail "SVG not closed"
fi
if command -v rsvg-convert >/dev/null; then
    rsvg-convert pic.svg -o pic.png 2>err.txt || fail "rsvg-convert failed: $(head -c 300 err.txt)"
    [ -s pic.png ] || fail "rsvg-convert wrote no PNG"
fi
expect 0 "$PB" show --no-diagram --quiet --svg cont.svg --continuation 2 --title 'A & B' --record "$rec"
[ "$(wc -l <out.txt)" -eq 1 ] || fail "--no-diagram prints more than the result line"
[ "$(grep -c '<line class="seg[^"]* cont"' cont.svg)" -eq 3 ] || fail "--continuation 2: wanted 3 continued segments (e8-d7, d7-d6-c5)"
grep -q 'A &amp; B' cont.svg || fail "title not escaped"
expect 0 "$PB" show --rules hockey --svg hockey.svg
grep -q 'class="goal-line top"' hockey.svg || fail "hockey SVG has no goal line"
# The replayer page: self-contained (no src=, href=, url() or address), the
# picture inline with every node named for the script, one record item per
# turn of the record (4), and announced like the SVG.
expect 0 "$PB" show --html page.html --record "$rec"
grep -q 'wrote page.html' err.txt || fail "--html not announced on stderr"
# (the SVG namespace name is an identifier, not fetched)
grep -oiE 'src=|href=|url\(|@import|https?://[^"]*' page.html | grep -qv '^http://www.w3.org/2000/svg$' &&
    fail "--html page refers to something outside itself"
[ "$(grep -c '<li class=' page.html)" -eq 4 ] || fail "--html page: wanted 4 record items"
[ "$(grep -c 'id="node-' page.html)" -eq "$(grep -c 'class="node"' pic.svg)" ] || fail "--html page: not every node named"
grep -q '<script>' page.html || fail "--html page has no script"

# Errors.
expect 5 "$PB" show --svg /nonexistent-dir/x.svg
[ "$(wc -l <err.txt)" -eq 1 ] || fail "unwritable SVG: not a one-line error"
grep -q '^paperball: cannot write' err.txt || fail "unwritable SVG: message"
expect 2 "$PB" show --record 'd6-e7 e7-e7'
[ "$(wc -l <err.txt)" -eq 1 ] || fail "bad record: not a one-line error"
expect 2 "$PB" show --record 'zz9'
expect 2 "$PB" show no-such-file.txt
expect 2 "$PB" show --continuation 9 --record "$rec"
expect 2 "$PB" show --bogus
expect 2 "$PB" show a.txt b.txt

finish
