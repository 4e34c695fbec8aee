#!/usr/bin/env bash
# batch.sh - `--batch FILE` (solve, moves, perft): many records in one
# process, one result line per record in order, error lines that name the
# line, the batch going on after them.
#
# The records are (2;8;10) endgames made here by an independent procedure:
# 104 games played from the start by random legal turns (picked by awk
# from `moves --batch`, preferring long routes so that the field fills up)
# for 60 turns, never a turn that ends the game.  Their values are checked
# against second methods: the same batch with a tiny table (64K, where
# entries are overwritten all the time) and one `solve` process per record (the root search
# of pb_solve rather than the kept solver of the batch).
. "$(dirname "$0")/lib/check.sh"
F="--field 2,8,10"

n=104
: > recs.txt
for _ in $(seq 1 $n); do echo "(В;Н)" >> recs.txt; done
for r in $(seq 1 60); do
  "$pb" moves $F --batch recs.txt > mv.txt || { fail "moves --batch, round $r"; break; }
  awk -v seed="$r" 'BEGIN { srand(seed) }
    FNR == NR { rec[FNR] = $0; next }
    {
      ln = $2; sub(/:$/, "", ln)
      line = $0; sub(/^line [0-9]+: [A-Za-z]+ to move: /, "", line)
      k = 0; m = split(line, items, ", ")
      for (t = 1; t <= m; t++) { split(items[t], p, " "); if (p[2] == "stop") c[++k] = p[1] }
      best = ""
      if (k > 0) for (s = 0; s < 40; s++) { x = c[int(rand() * k) + 1]; if (length(x) > length(best)) best = x }
      out[ln] = best == "" ? rec[ln] : rec[ln] " " best
    }
    END { for (i = 1; i <= length(rec); i++) print (i in out ? out[i] : rec[i]) }' recs.txt mv.txt > recs.new
  mv recs.new recs.txt
done
check "records made" $n "$(wc -l < recs.txt)"

# One process solves them all: one line per record, in order, all known.
"$pb" solve $F --batch recs.txt > big.txt; st=$?
check "solve --batch status" 0 "$st"
check "one line per record" $n "$(grep -c '^line ' big.txt)"
check "lines in order" "$(seq 1 $n | tr '\n' ' ')" "$(awk '{ sub(/:$/, "", $2); printf "%s ", $2 }' big.txt)"
check "no unknown value" 0 "$(grep -c unknown big.txt)"

# JSON: one object per line with its value; the same values as the text.
"$pb" solve $F --batch recs.txt --json > big.json
check "one JSON object per line" $n "$(grep -c '^{"line":[0-9]*,.*"value":"[a-z]*".*}$' big.json)"
contains "version in JSON" '"version":' "$(head -1 big.json)"
text_values=$(awk '{ print $3 }' big.txt | tr '\n' ' ')
json_values=$(sed 's/.*"value":"\([a-z]*\)".*/\1/' big.json | tr '\n' ' ')
check "JSON values = text values" "$text_values" "$json_values"

# Second method 1: a tiny table (64K) gives the same values.
"$pb" solve $F --batch recs.txt --memory 64K > tiny.txt
check "tiny table = default table" "$text_values" "$(awk '{ print $3 }' tiny.txt | tr '\n' ' ')"

# Second method 3: alpha-beta (the default is proof-number search) gives
# the same values (the best turns may differ: any winning turn, or any
# turn of a lost position, is a best one).
"$pb" solve $F --batch recs.txt --algo ab > ab.txt
check "alpha-beta batch = pn batch" "$text_values" "$(awk '{ print $3 }' ab.txt | tr '\n' ' ')"

# Second method 2: one solve process per record (every 13th record).
for i in $(seq 1 13 $n); do
  want=$(sed -n "${i}p" big.txt | awk '{ print $3 }')
  got=$("$pb" solve $F --record "$(sed -n "${i}p" recs.txt)" --json --quiet | grep -o '"value":"[a-z]*"' | head -1 | cut -d'"' -f4)
  check "record $i: batch = single solve" "$want" "$got"
done

# Standard input, a bad line in the middle: an error line naming it, the
# batch goes on, status 2.
{ sed -n 1,5p recs.txt; echo "e7-e8-zz"; sed -n 6,10p recs.txt; } | "$pb" solve $F --batch - > mixed.txt; st=$?
check "bad line: status 2" 2 "$st"
check "bad line: every line answered" 11 "$(wc -l < mixed.txt)"
contains "bad line: named" "line 6: error:" "$(sed -n 6p mixed.txt)"
check "after the bad line: the same values" "$(sed -n 6,10p big.txt | awk '{ print $3 }')" \
  "$(sed -n 7,11p mixed.txt | awk '{ print $3 }')"
{ echo "e7-e8-zz"; } | "$pb" solve $F --batch - --json > bad.json
contains "bad line in JSON" '{"line":1,"error":' "$(cat bad.json)"

# moves and perft: perft(1) of each record is the number of turns moves lists.
"$pb" perft $F --depth 1 --batch recs.txt > perft.txt || fail "perft --batch"
"$pb" moves $F --batch recs.txt --json > moves.json || fail "moves --batch --json"
check "perft --batch lines" $n "$(grep -c '^line ' perft.txt)"
check "perft(1) = number of moves" "$(awk '{ print $4 }' perft.txt | tr '\n' ' ')" \
  "$(sed 's/.*"count":\([0-9]*\).*/\1/' moves.json | tr '\n' ' ')"

# Blank lines and comments are skipped; line numbers stay those of the file.
printf '# endgames\n\n%s\n' "$(sed -n 1p recs.txt)" > one.txt
contains "comments skipped" "line 3: $(sed -n 1p big.txt | cut -d' ' -f3-5)" "$("$pb" solve $F --batch one.txt)"

# --batch with another position source is refused.
check "--batch and --record" 2 "$(status "$pb" solve --batch recs.txt --record e7-e8)"
check "--batch, missing file" 2 "$(status "$pb" solve --batch no-such-file)"
finish
