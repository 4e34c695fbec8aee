# tests/cli/lib/check.sh - what the command-line tests share.  Source it
# from a test script run as `bash script.sh /path/to/paperball`:
#   . "$(dirname "$0")/lib/check.sh"
# It sets $pb (absolute path of the program) and $fails, and defines:
#   fail MESSAGE                 count a failure
#   check NAME EXPECTED ACTUAL   equal strings
#   contains NAME NEEDLE TEXT    NEEDLE occurs in TEXT
#   status CMD...                prints CMD's exit status (output discarded)
#   skip REASON                  reports the test skipped (ctest: SKIP_RETURN_CODE 77)
#   finish                       prints the tally; exit status 1 on failures
# (ctest runs each script in a scratch directory of its own.)
pb=${1:?usage: $(basename "$0") /path/to/paperball}
pb=$(cd "$(dirname "$pb")" && pwd)/$(basename "$pb")
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
check() {
  if [ "$2" != "$3" ]; then fail "$1: expected [$2] got [$3]"; else echo "ok   $1"; fi
}
contains() {
  case "$3" in *"$2"*) echo "ok   $1";; *) fail "$1: [$2] not in [$3]";; esac
}
status() { "$@" >/dev/null 2>&1; echo $?; }
skip() {
  echo "skipped: $*"
  exit 77
}
finish() {
  echo "$fails failed"
  [ "$fails" -eq 0 ]
  exit
}
