#!/usr/bin/env bash
# install.sh - `cmake --install` puts the program, its man page (made from
# the program's --help texts) and bash completion under the prefix; the
# completion offers each command's own options.
. "$(dirname "$0")/lib/check.sh"
build=$(dirname "$pb")
cmake --install "$build" --prefix "$PWD/inst" > install.log 2>&1 || fail "cmake --install: $(tail -3 install.log)"
check "program installed" "$("$pb" --version)" "$(inst/bin/paperball --version 2>&1)"
man=inst/share/man/man1/paperball.1
[ -s "$man" ] || fail "no man page"
contains "man page: title" ".TH PAPERBALL 1" "$(head -1 "$man")"
for c in info show moves play perft solve enumerate prove bench; do
  grep -q "^\.SS $c\$" "$man" || fail "man page: no section for $c"
done
contains "man page: exit status table" "6  prove: a claim fails" "$(cat "$man")"
contains "man page: solve's --batch" "--batch FILE" "$(sed -n '/^\.SS solve/,/^\.SS enumerate/p' "$man")"
comp=inst/share/bash-completion/completions/paperball
[ -s "$comp" ] || fail "no bash completion"
# Completion as bash would ask for it.
complete_words() {
  bash -c '. "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _paperball; echo "${COMPREPLY[*]}"' _ "$comp" "$@"
}
contains "commands completed" "solve" "$(complete_words "$pb" so)"
contains "show --s offers --svg" "--svg" "$(complete_words "$pb" show --s)"
case "$(complete_words "$pb" perft --s)" in *--svg*) fail "perft --s offers --svg";; *) echo "ok   perft --s offers no --svg";; esac
check "--rules values" "book hockey triple" "$(complete_words "$pb" solve --rules '')"
finish
