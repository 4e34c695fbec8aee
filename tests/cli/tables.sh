#!/bin/bash
# tables.sh - scripts/enumeration_tables.sh, the script that writes
# results/enumeration.md, on tiny limits: its counts against perft, the rule
# sets one after another, a kept run reused, and a program whose two
# methods disagree making it fail.
# Usage: bash tables.sh /path/to/paperball   (run in a scratch directory)
set -u
. "$(dirname "$0")/lib/check.sh"
script=$(cd "$(dirname "$0")/../.." && pwd)/scripts/enumeration_tables.sh
W=$(mktemp -d tables-cli.XXXXXX)
cd "$W" || exit 1
W=$PWD

# tables OUT KEEP [PROGRAM]: two seconds a field, eight for the script.
tables() {
    bash "$script" -t 2 -c 2 -T 8 -j 1 -m 1G -b "${3:-$pb}" -o "$1" -k "$2" 2> "$1.err"
}

mkdir -p one two bad
tables one keep
check "first run: status" 0 $?
row=$(grep '^| book | (2;2;2) |' one/enumeration.md)
# | rules | field | status | depth | positions | games | Top wins | Bottom wins | draws | ...
games=$(echo "$row" | awk -F' [|] ' '{ print $6 }')
top=$(echo "$row" | awk -F' [|] ' '{ print $7 }')
bottom=$(echo "$row" | awk -F' [|] ' '{ print $8 }')
# The games by a third method: perft's finished turn sequences summed over
# the depths (no game of (2;2;2) is longer than its 16 segments).
check "book (2;2;2): games = perft's finished sequences" \
    "$("$pb" perft --field 2,2,2 --depth 16 | awk 'NR > 1 { n += $3 } END { print n }')" "$games"
check "book (2;2;2): Top wins + Bottom wins = games" "$games" "$((top + bottom))"
contains "book (2;2;2): the second method agrees" "enumerate: the same" "$row"
check "CSV: one line per row and a header" \
    "$(($(grep -c '^| [a-z]* | (' one/enumeration.md) + 1))" "$(wc -l < one/enumeration.csv)"

# The rows of each rule set together, in the order book, hockey, triple
# (the fields themselves are tried size by size, every rule set in turn).
order=$(grep -o '^| [a-z]* | (' one/enumeration.md | awk '{ print $2 }' | uniq | tr '\n' ' ')
check "rows grouped by rule set" "book hockey triple " "$order"

# Run again with the same keep directory: the finished runs are reused.
tables two keep
check "second run: status" 0 $?
contains "second run: a kept run reused" "book (2;2;2): kept from an earlier run" "$(cat two.err)"
check "second run: the same book (2;2;2) row" "$row" "$(grep '^| book | (2;2;2) |' two/enumeration.md)"

# A program whose forward count (enumerate) is changed (a digit added to its
# games): the row says
# DIFFERENT and the script fails.
cat > off-by-one << EOF
#!/bin/bash
if [ "\$1" = enumerate ]; then
    "$pb" "\$@" | sed 's/^games: \([0-9]*\)/games: \11/'
    exit \${PIPESTATUS[0]}
fi
exec "$pb" "\$@"
EOF
chmod +x off-by-one
tables bad keep-bad "$W/off-by-one"
check "two methods that differ: status" 1 $?
contains "two methods that differ: the row says so" "enumerate: DIFFERENT" "$(grep '^| book | (2;2;2) |' bad/enumeration.md)"
contains "two methods that differ: said on stderr" "the two methods differ" "$(cat bad.err)"

# No program: one line, status 2.
bash "$script" -b "$W/nothing" -o none 2> none.err
check "no program: status" 2 $?
check "no program: one line" 1 "$(wc -l < none.err)"

finish
