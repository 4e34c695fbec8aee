#!/bin/bash
# bench.sh - `paperball bench signature`: the same figure on every run and
# every machine, equal to the one recorded in tests/bench_signature.txt (so
# a change to the search shows up here), the sum of the nodes it lists, the
# same in JSON; the values of its positions; a bad part refused.
# Usage: bash bench.sh /path/to/paperball   (run in a scratch directory)
set -u
. "$(dirname "$0")/lib/check.sh"
expected=$(grep -v '^#' "$(dirname "$0")/../bench_signature.txt" | tr -d '[:space:]')

"$pb" bench signature > sig.txt || fail "bench signature: status $?"
signature=$(awk '$1 == "signature" {print $2}' sig.txt)
check "signature as recorded in tests/bench_signature.txt" "$expected" "$signature"
check "signature is the sum of the nodes listed" "$signature" \
  "$(awk 'NR > 1 && $1 != "signature" {n += $NF} END {print n}' sig.txt)"
# The values do not depend on the search: the same before and after any
# change that moves the signature.
check "values" "win win loss loss win win" "$(awk 'NR > 1 && $1 != "signature" {print $(NF-1)}' sig.txt | xargs)"

"$pb" bench signature --json > sig.json || fail "bench signature --json: status $?"
check "JSON signature" "$signature" \
  "$(python3 -c 'import json,sys; j=json.load(open(sys.argv[1])); print(j["signature"] if j["signature"] == sum(p["nodes"] for p in j["positions"]) else -1)' sig.json)"

check "unknown part refused" 2 "$(status "$pb" bench nonsense)"
finish
