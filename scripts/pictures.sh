#!/bin/bash
# pictures.sh - renders the pictures of docs/diagrams.md into docs/img/:
# each as SVG (`paperball show --svg`), as PNG (rsvg-convert) and, for the
# text diagrams, as the terminal output; the replayer page of a game and a
# screenshot of it in a headless chromium (tests/cli/lib/browser.js).
# Re-run after changing solver/diagram*.c or solver/replay_html.c and commit
# the results.
#
# usage: scripts/pictures.sh [path/to/paperball]   (default build/paperball)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
PB=${1:-$root/build/paperball}
out=$root/docs/img
[ -x "$PB" ] || { echo "pictures.sh: no paperball at $PB (build first)" >&2; exit 1; }
command -v rsvg-convert >/dev/null || { echo "pictures.sh: rsvg-convert missing (apt-get install librsvg2-bin)" >&2; exit 1; }
mkdir -p "$out"

# png NAME: NAME.png from NAME.svg
png() {
    rsvg-convert "$out/$1.svg" -o "$out/$1.png.tmp"
    mv "$out/$1.png.tmp" "$out/$1.png"
    echo "wrote docs/img/$1.svg and .png"
}
# picture NAME [show options...]: NAME.svg and NAME.png
picture() {
    local name=$1; shift
    "$PB" show --no-diagram --quiet --svg "$out/$name.svg.tmp" "$@" >/dev/null 2>&1
    mv "$out/$name.svg.tmp" "$out/$name.svg"
    png "$name"
}
# text NAME [show options...]: NAME.txt, the terminal diagram
text() {
    local name=$1; shift
    "$PB" show "$@" >"$out/$name.txt.tmp"
    mv "$out/$name.txt.tmp" "$out/$name.txt"
    echo "wrote docs/img/$name.txt"
}

# The book's figure 4: the (2;6;8) field with its odd ("red") nodes.
picture field-2-6-8-odd --field '2;6;8' --odd --title "The (2;6;8) field and its odd nodes (the book's figure 4)"
text field-2-6-8-odd --field '2;6;8' --odd
text field-2-6-8-odd-unicode --field '2;6;8' --odd --unicode

# A position after ten turns with bounces, both players' lines.
sample='d6-e6 e6-f6 f6-g6-f7 f7-g7-f6-e5 e5-e6-f7-f8 f8-g8-f7-f6-g5-f4 f4-e5-d6-c5 c5-c6 c6-d7 d7-d6-c6-b5'
picture sample-2-6-8 --field '2;6;8' --record "$sample" --title 'A position after ten turns'
text sample-2-6-8 --field '2;6;8' --record "$sample"
text sample-2-6-8-unicode --field '2;6;8' --record "$sample" --unicode

# The same game, the last three turns drawn as a continuation (the style
# used for a solver's best line).
picture sample-2-6-8-continuation --field '2;6;8' --record "$sample" --continuation 7 \
    --title 'Seven turns, then a continuation of three'

# A hockey field (8 x 10 cells, goal lines one cell inside the ends).
hockey='e6-e7 e7-f7 f7-e6-d5 d5-c6 c6-d6 d6-e6-d7 d7-d6-e7-f8 f8-f7-g7 g7-f8-e9'
picture hockey-8-10 --rules hockey --field '2;8;10' --setback 1 --record "$hockey" --title 'Hockey: goal lines set back one cell'
text hockey-8-10 --rules hockey --field '2;8;10' --setback 1 --record "$hockey"

# A whole game to its end, every turn numbered: the line of perfect play of
# (2;2;8) as the solver finds it, drawn as a game, and as the solver draws
# it (`solve --svg`, the line as a continuation from the start).
line=$("$PB" solve --field '2;2;8' --quiet --json | python3 -c 'import json, sys; print(" ".join(json.load(sys.stdin)["pv"]))')
picture finished-2-2-8 --field '2;2;8' --record "$line" --title 'A finished game, every turn numbered'
"$PB" solve --field '2;2;8' --quiet --svg "$out/line-2-2-8.svg.tmp" >/dev/null
mv "$out/line-2-2-8.svg.tmp" "$out/line-2-2-8.svg"
png line-2-2-8

# The replayer: the ten-turn sample as a page, and a screenshot of it in
# the middle of turn 6 (five turns on, then one step).
"$PB" show --no-diagram --quiet --field '2;6;8' --record "$sample" --title 'A position after ten turns' \
    --html "$out/replay-2-6-8.html.tmp" >/dev/null
mv "$out/replay-2-6-8.html.tmp" "$out/replay-2-6-8.html"
echo "wrote docs/img/replay-2-6-8.html"
chrome=$(command -v chromium || command -v chromium-browser || true)
if [ -n "$chrome" ] && command -v node >/dev/null; then
    keys=$(mktemp)
    echo '[{"key":"ArrowDown"},{"key":"ArrowDown"},{"key":"ArrowDown"},{"key":"ArrowDown"},{"key":"ArrowDown"},{"key":"ArrowRight"}]' >"$keys"
    node "$root/tests/cli/lib/browser.js" "$chrome" "$out/replayer.png.tmp" "$out/replay-2-6-8.html" "$keys" >/dev/null
    rm -f "$keys"
    mv "$out/replayer.png.tmp" "$out/replayer.png"
    echo "wrote docs/img/replayer.png"
else
    echo "pictures.sh: no chromium or node: docs/img/replayer.png not redrawn" >&2
fi
