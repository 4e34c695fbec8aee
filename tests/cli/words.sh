#!/bin/bash
# words.sh - the pages a reader sees (results/, docs/) speak of the project
# alone: no absolute path of the machine that wrote them, no words about
# issues or the names of outside sources.  The scripts that write results/
# must keep it so.  Usage: bash words.sh /path/to/paperball (unused)
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib/check.sh"
root=$(cd "$here/../.." && pwd)
# name|extended regular expression (case-insensitive)
rules='absolute path|(^|[^[:alnum:]._-])/(work|root|home|tmp|Users)/
issue|the issue|issues? #?[0-9]
outside source|seeds?/|seed 0[0-9]'
while IFS='|' read -r name re; do
  hits=$(cd "$root" && grep -rnIiE "$re" results docs 2>/dev/null | head -5)
  check "no $name in results/ or docs/" "" "$hits"
done <<<"$rules"
# The check itself: each pattern must catch what it is meant to.
printf 'made in /work/x\n' | grep -qiE '(^|[^[:alnum:]._-])/(work|root|home|tmp|Users)/' || fail "path pattern misses /work/"
printf 'as the issue asks\n' | grep -qiE 'the issue' || fail "issue pattern misses 'the issue'"
printf 'the book (seed 003)\n' | grep -qiE 'seed 0[0-9]' || fail "source pattern misses 'seed 003'"
finish
