#!/bin/bash
# browser.sh - the game replayer (`show --html`, `solve --html`) in a real
# headless browser: loads the page, presses keys, checks the DOM against
# values worked out here from the record, and takes a screenshot.
# Needs chromium and node (tests/cli/lib/browser.js drives chromium over its
# DevTools pipe).  Without them: skipped (status 77), but FAILS when CI=true.
# Usage: bash browser.sh /path/to/paperball
. "$(dirname "$0")/lib/check.sh"
here=$(cd "$(dirname "$0")" && pwd)
chrome=${CHROMIUM:-$(command -v chromium || command -v chromium-browser || true)}
if [ -z "$chrome" ] || ! command -v node >/dev/null; then
  if [ "${CI:-}" = true ]; then
    echo "FAIL: chromium or node missing (scripts/setup.sh installs them)"
    exit 1
  fi
  echo "skipped: chromium or node missing"
  exit 77
fi

# A book game of five turns: 1, 1, 2, 3 and 3 steps.
rec='d6-e6 e6-f6 f6-g6-f7 f7-g7-f6-e5 e5-e6-f7-f8'
check "show --html" 0 "$(status "$pb" show --quiet --record "$rec" --html game.html)"

# expect_at STOP: "turn step lines ball current numbers" after STOP steps,
# from the record alone (no segment is drawn twice in a book game).
expect_at() {
  echo "$rec" | awk -v stop="$1" '{
    done = 0; ball = ""; turn = 0; step = 0
    split($1, first, "-"); ball = first[1]
    for (t = 1; t <= NF; t++) {
      n = split($t, nodes, "-")
      for (k = 2; k <= n; k++) {
        if (done == stop) break
        done++; turn = t; step = k - 1; ball = nodes[k]
      }
    }
    numbers = (turn == 0) ? 0 : (step == split($turn, x, "-") - 1 ? turn : turn - 1)
    print turn, step, done, ball, turn, numbers }'
}
# What the page shows: the status attributes, the lines and turn numbers
# the browser renders (display not none), the node under the ball, the
# highlighted record item (1-based, 0: none).
read -r -d '' probe <<'JS'
(function () {
  var st = document.getElementById('status'), svg = document.querySelector('#board svg');
  function shown(e) { return getComputedStyle(e).display !== 'none'; }
  var lines = [].filter.call(svg.querySelectorAll('line.seg'), shown).length;
  var nums = [].filter.call(svg.querySelectorAll('g.turn-no'), shown).length;
  var b = svg.querySelector('circle.ball');
  var at = [].find.call(svg.querySelectorAll('circle.node'), function (n) {
    return n.getAttribute('cx') === b.getAttribute('cx') && n.getAttribute('cy') === b.getAttribute('cy'); });
  var cur = [].map.call(document.querySelectorAll('#record li'), function (li) {
    return li.classList.contains('current'); }).indexOf(true) + 1;
  return [st.dataset.turn, st.dataset.step, lines, at ? at.id.slice(5) : 'none', cur, nums].join(' ');
})()
JS
probe_json=$(node -e 'process.stdout.write(JSON.stringify(process.argv[1]))' "$probe")
key() { printf '{"key":"%s","shift":%s},\n' "$1" "${2:-false}"; }
look() { printf '{"eval":%s,"name":"%s"},\n' "$probe_json" "$1"; }
{
  echo '['
  look start
  key ArrowRight; key ArrowRight; key ArrowRight; look right3
  key ArrowRight; key ArrowDown; look down
  key ArrowRight; key ArrowRight true; look shift-right
  key ArrowUp; look up
  key ArrowLeft; look left
  key ArrowLeft true; look shift-left
  key End; look end
  key Home; look home
  echo '{"eval":"document.title","name":"title"}]'
} >keys.json

# A line of perfect play: its value at the start, the result at the end.
# The expected winner and length come from `solve --json` (value and pv).
check "solve --html" 0 "$(status "$pb" solve --field '2;2;8' --quiet --html line.html)"
json=$("$pb" solve --field '2;2;8' --quiet --json)
turns=$(echo "$json" | sed 's/.*"pv":\[\([^]]*\)\].*/\1/' | tr ',' '\n' | grep -c .)
winner=$(echo "$json" | grep -q '"to_move":"top","value":"win"' && echo Top || echo Bottom)
cat >line.json <<'EOF2'
[{"eval":"document.getElementById('value').textContent","name":"line-start"},
 {"key":"End"},
 {"eval":"document.getElementById('value').textContent","name":"line-end"}]
EOF2

# One browser start for both pages (the start is most of the time taken).
if ! node "$here/lib/browser.js" "$chrome" shot.png game.html keys.json line.html line.json >dom.txt 2>err.txt; then
  fail "browser: $(cat err.txt)"
  finish
fi
got() { awk -F'\t' -v n="$1" '$1 == n { print $2 }' dom.txt | tr -d '"'; }
check "at the start" "$(expect_at 0)" "$(got start)"
check "three steps on" "$(expect_at 3)" "$(got right3)"
check "Right, Down: the end of the next turn" "$(expect_at 7)" "$(got down)"
check "Right, Shift+Right: the end of the turn under way" "$(expect_at 10)" "$(got shift-right)"
check "Up: back to the end of turn 4" "$(expect_at 7)" "$(got up)"
check "Left: one step back" "$(expect_at 6)" "$(got left)"
check "Shift+Left: back to the end of turn 3" "$(expect_at 4)" "$(got shift-left)"
check "End" "$(expect_at 10)" "$(got end)"
check "Home" "$(expect_at 0)" "$(got home)"
contains "page title names the field" "(2;6;8)" "$(got title)"
check "screenshot is a PNG" "89504e47" "$(head -c 4 shot.png | od -An -tx1 | tr -d ' \n')"
[ "$(stat -c %s shot.png)" -gt 10000 ] || fail "screenshot is only $(stat -c %s shot.png) bytes"

check "value at the start of the line" \
  "Value with perfect play: $winner wins (this line ends in $turns turns)" "$(got line-start)"
contains "result at the end of the line" "$winner wins" "$(got line-end)"
finish
