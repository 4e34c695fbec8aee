#!/bin/bash
# tables.sh - scripts/enumeration_tables.sh, the script that writes
# results/enumeration.md, on tiny limits: its counts against perft, the rule
# sets one after another, a kept run reused, a stopped run charged only
# for the work it kept, and a program whose two methods disagree making it
# fail.
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
check "CSV: the program's version on the row" "\"$("$pb" --version)\"" \
    "$(grep '^book,2,2,2,' one/enumeration.csv | awk -F, '{ print $NF }')"
contains "the table names the program" "program: \`$("$pb" --version)\`" "$(cat one/enumeration.md)"

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

# A sitting stopped in a pass is charged only up to the last file it kept.
# A wrapper program whose tablebase build writes a layer file after a
# second and then works on (a pass that will be dropped) until SIGTERM;
# the script is stopped some 4 s after the file: charged about 1 s, not 5.
cat > slow-pass << EOF
#!/bin/bash
if [ "\$1" = tb ]; then
    out=
    while [ \$# -gt 0 ]; do [ "\$1" = --out ] && out=\$2; shift; done
    trap 'exit 3' TERM
    sleep 1
    echo layer > "\$out.k1"
    : > "$W/written"
    sleep 60 &
    wait
    exit 3
fi
exec "$pb" "\$@"
EOF
chmod +x slow-pass
setsid bash "$script" -t 60 -c 2 -T 120 -j 1 -m 1G -b "$W/slow-pass" -o stop -k keep-stop 2> stop.err &
spid=$!
for _ in $(seq 100); do [ -e written ] && break; sleep 0.2; done
sleep 4
kill -TERM -- "-$spid"
wait "$spid"
check "stopped in a pass: status" 3 $?
spent=$(cat keep-stop/*/spent)
contains "stopped in a pass: said" "stopped in book (2;2;2) after $spent s of kept work" "$(cat stop.err)"
check "stopped in a pass: only the kept work charged (about 1 s, not 5)" yes \
    "$(awk -v s="$spent" 'BEGIN { print (s >= 0.9 && s < 3.5) ? "yes" : "no: " s }')"

# No program: one line, status 2.
bash "$script" -b "$W/nothing" -o none 2> none.err
check "no program: status" 2 $?
check "no program: one line" 1 "$(wc -l < none.err)"

finish
