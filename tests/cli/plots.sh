#!/bin/bash
# plots.sh - scripts/plots.py, which draws the pictures of results/plots.md,
# on tables written here: the map of the fields whose whole games are
# counted (a cell per goal width, its colour and number by the order of
# magnitude of the games, over-limit and over-memory marks), and the solved
# map beside it; the root's numbers over a long solve.
# Usage: bash plots.sh /path/to/paperball   (run in a scratch directory; the
# program is not used: the tables are written here)
set -u
. "$(dirname "$0")/lib/check.sh"
plots=$(cd "$(dirname "$0")/../.." && pwd)/scripts/plots.py
command -v python3 > /dev/null || skip "no python3"
mkdir -p root/results/img
cd root || exit 1
cat > results/solved.csv << 'EOF'
rules,field,status,value,seconds
book,(2;2;2),solved,win,0.002
book,(2;2;4),unknown,,600
EOF
# Games by hand: 165350 is 10^5 to 10^6 (n = 5); 9,223,497,835,170 is 10^12
# to 10^13 (n = 12).
cat > results/enumeration.csv << 'EOF'
rules,goal,width,length,setback,dead_end,status,depth,positions,games,top_wins,bottom_wins,draws,seconds
book,2,2,2,,,complete,3,161,165350,66215,99135,0,0.1
book,2,2,6,,,complete,7,12408163,9223497835170,1,2,0,858.3
book,4,4,2,,,over 3600 s (layers to 9 found),,,,,,,3600.0
book,6,6,2,,,over --memory 16G (layers to 11 found),,,,,,,3602.0
hockey,2,2,4,0,draw,complete,5,46205,1291047502,1,2,3,3.9
hockey,2,2,4,0,loss,complete,5,46205,1291047502,1,2,0,3.9
hockey,2,4,4,1,,not tried,,,,,,,
triple,2,2,2,,,complete,1,1,6,3,3,0,0.1
EOF
python3 "$plots" "$PWD" abc123 > out.txt 2> err.txt
check "plots.py: status" 0 $?
contains "the map written" "wrote results/img/enumeration-map.svg" "$(cat out.txt)"
svg=$(cat results/img/enumeration-map.svg)
contains "the time limit in the title" "Whole games counted in 3600 s per field" "$svg"
contains "the table and commit named" "from results/enumeration.csv (commit abc123)" "$svg"
# The cell of each field: its tooltip, then its label.
cell() { # NAME: the label drawn right after the cell whose tooltip has NAME
    grep -F -A1 "$1" results/img/enumeration-map.svg | sed -n '2s/.*>\([^<]*\)<\/text>.*/\1/p'
}
check "book (2;2;2): n = 5" 5 "$(cell 'book (2;2;2) complete: 165350 games')"
check "book (2;2;6): n = 12" 12 "$(cell 'book (2;2;6) complete: 9223497835170 games')"
check "book (4;4;2): over the time limit" "…" "$(cell 'book (4;4;2) over 3600 s')"
check "book (6;6;2): over the memory budget" M "$(cell 'book (6;6;2) over --memory 16G')"
check "hockey S=0 (2;2;4): n = 9, one cell (dead ends drawn)" 9 "$(cell 'hockey S=0 (2;2;4) complete')"
check "hockey S=1 (2;4;4): not tried" "–" "$(cell 'hockey S=1 (2;4;4) not tried')"
check "triple (2;2;2): n = 0" 0 "$(cell 'triple (2;2;2) complete: 6 games')"
check "one cell per field drawn" 7 "$(grep -c '<rect class="cell"' results/img/enumeration-map.svg)"
# The darker the cell, the more games: (2;2;6) darker than (2;2;2).
fill() { grep -F "$1" results/img/enumeration-map.svg | sed -n 's/.*fill="#\(..\).*/\1/p' | head -1; }
check "more games, a darker green" yes \
    "$([ $((16#$(fill 'book (2;2;6)'))) -lt $((16#$(fill 'book (2;2;2)'))) ] && echo yes || echo no)"
contains "the solved map written" "wrote results/img/solved-map-book.svg" "$(cat out.txt)"
contains "the solved map: an unsolved field marked" '<title>(2;2;4) unknown ' "$(cat results/img/solved-map-book.svg)"
# A long solve's page: the root's numbers drawn from its progress lines.
# By hand: t = 0, 100, 200 s map to x = 80, 340, 600 (80 + t/200 * 520);
# the numbers' axis tops at 50 (the largest, 40, plus a tenth, rounded up
# to a ten), so y = 260 - v * 4: pn 10, 20, 5 at y 220, 180, 240.
cat > results/long_solve_book_2_2_4.md << 'EOF'
# A long solve: book (2;2;4) from the start

- command: `paperball solve --rules book --field 2,2,4`
- commit: abc123

```
solve: 0.0 s, 5 nodes, 0.50M nodes/s, table 10.0% full, proof-number search: can Top win? root pn 10 dn 30
solve: 100.0 s, 9 nodes, 0.40M nodes/s, table 50.0% full, proof-number search: can Top win? root pn 20 dn 40
solve: 200.0 s, 12 nodes, 0.30M nodes/s, table 90.0% full, proof-number search: can Top win? root pn 5 dn 0
```
EOF
python3 "$plots" "$PWD" abc123 > out.txt 2> err.txt
check "plots.py with a long solve: status" 0 $?
contains "the long solve drawn" "wrote results/img/long-solve-book-2-2-4.svg" "$(cat out.txt)"
check "the proof number's path" 'M80.0 220.0L340.0 180.0L600.0 240.0' \
    "$(sed -n 's/.*class="pn" d="\([^"]*\)".*/\1/p' results/img/long-solve-book-2-2-4.svg)"
contains "the run's command in the subtitle" "paperball solve --rules book --field 2,2,4 (commit abc123)" \
    "$(cat results/img/long-solve-book-2-2-4.svg)"
check "one question throughout: no mark where it changes" 0 \
    "$(grep -c 'class="question"' results/img/long-solve-book-2-2-4.svg)"
# Progress lines that name what each question is for: a mark where it
# changes (at t = 100 and 200 s: x = 80 + t/200 * 520), named, none where
# it goes on; the classes-done count is not part of the name.
cat > results/long_solve_book_2_2_6.md << 'EOF'
# A long solve: book (2;2;6) from the start

```
solve: 0.0 s, 5 nodes, 0.50M nodes/s, table 10.0% full, 64 MiB, proof-number search on c4-d4 (classes 0/5 done): can Bottom win? root pn 10 dn 30
solve: 50.0 s, 7 nodes, 0.50M nodes/s, table 10.0% full, 64 MiB, proof-number search on c4-d4 (classes 0/5 done): can Bottom win? root pn 12 dn 30
solve: 100.0 s, 9 nodes, 0.40M nodes/s, table 50.0% full, 64 MiB, proof-number search on c4-c3 (classes 1/5 done): can Bottom win? root pn 20 dn 40
solve: 200.0 s, 12 nodes, 0.30M nodes/s, table 90.0% full, 64 MiB, proof-number search on the line: can Top win? root pn 5 dn 0
```
EOF
python3 "$plots" "$PWD" abc123 > out.txt 2> err.txt
svg=$(cat results/img/long-solve-book-2-2-6.svg)
check "a mark at each change of question, and at the start" 3 "$(grep -o 'class="question"' <<< "$svg" | wc -l)"
contains "the mark of the second class, named" '<path class="question" d="M340.0 60L340.0 260"' "$svg"
contains "... by its route" '>c4-c3</text>' "$svg"
contains "... and the line's" '>the line</text>' "$svg"
rm results/long_solve_book_2_2_6.md results/img/long-solve-book-2-2-6.svg
# A long solve that finished: the field the table left open, book (2;2;4),
# is drawn in its value's colour with a dot, in the solved map (it proved
# every first turn) and the value map; one of another variant (hockey, the
# default setback 1 and lost dead ends) that proved the value alone goes to
# that variant's value map only, and a stopped one (the page above, no exit
# status 0) to none.
cat > results/long_solve_book_2_2_4_done.md << 'EOF'
# A long solve: book (2;2;4) from the start, part done

- command: `paperball solve --rules book --field 2,2,4 --first-turns --threads 2`
- exit status: 0 (0: solved; 3: stopped by the time limit)

```
value        loss for Top (the player to move)
```
EOF
cat > results/long_solve_hockey_2_2_4.md << 'EOF'
- command: `paperball solve --rules hockey --field 2,2,4 --dead-end loss`
- exit status: 0 (0: solved; 3: stopped by the time limit)
value        win for Top (the player to move)
EOF
cat >> results/solved.csv << 'EOF'
"hockey S=1, dead end loses",(2;2;4),stopped,unknown,600
"hockey S=1, dead end draws",(2;2;4),stopped,unknown,600
EOF
cp results/solved.csv results/values.csv
python3 "$plots" "$PWD" abc123 > out.txt 2> err.txt
check "plots.py with a finished long solve: status" 0 $?
contains "the finished long solve's field in the loss colour" \
    'fill="#d62728"><title>(2;2;4) loss: solved by a longer run, results/long_solve_book_2_2_4_done.md' \
    "$(cat results/img/solved-map-book.svg)"
check "its dot, and the legend's" 2 "$(grep -o '<circle' results/img/solved-map-book.svg | wc -l)"
contains "the value map too" '(2;2;4) loss: solved by a longer run' "$(cat results/img/value-map-book.svg)"
contains "the solved map of hockey with lost dead ends: still open (the value alone was solved)" \
    '<title>(2;2;4) stopped unknown' "$(cat results/img/solved-map-hockey-s-1-dead-end-loses.svg)"
check "the value map of hockey with lost dead ends: a win" 1 \
    "$(grep -c '(2;2;4) win: solved by a longer run' results/img/value-map-hockey-s-1-dead-end-loses.svg)"
contains "hockey with drawn dead ends: still open" '<title>(2;2;4) stopped unknown' \
    "$(cat results/img/solved-map-hockey-s-1-dead-end-draws.svg)"
# A walk along a game (scripts/along_game.sh): a mark per position at its
# nodes (the column its header names), log scale, coloured by value,
# hollow when not solved.  By hand:
# the axis tops at 10^5 (the most nodes, 100,000), so y = 350 - log10(n) * 60
# (1,000 at 170, 100,000 at 50, 10 at 290); three positions, x = 80 + (k +
# 0.5) / 3 * 460 (k = 2, 1, 0 at 463.3, 310.0, 156.7).
cat > results/along_game_book_2_2_4.md << 'EOF'
# Along a game: book (2;2;4) solved from the end back

| turns | to move | value | best | proof / disproof number | proofs read | nodes | wall s | peak MiB |
|---|---|---|---|---|---|---|---|---|
| 2 | top | **win** | b3-b2 | - | - | 1,000 | 0.1 | 8 |
| 1 | bottom | not solved | - | 3 / 4 | 7 | 100,000 | 1.0 | 8 |
| 0 | top | **loss** | b3-b4 | - | 2,000,000 | 10 | 0.0 | 8 |
EOF
python3 "$plots" "$PWD" abc123 > out.txt 2> err.txt
check "plots.py with a walk along a game: status" 0 $?
svg=$(cat results/img/along-game-nodes-book-2-2-4.svg)
contains "the win after 2 turns" '<circle cx="463.3" cy="170.0" r="4.5" fill="#3b9a4a"' "$svg"
contains "the position not solved, hollow" '<circle cx="310.0" cy="50.0" r="4.5" fill="#fff"' "$svg"
contains "the loss at the start" '<circle cx="156.7" cy="290.0" r="4.5" fill="#d62728"' "$svg"
finish
