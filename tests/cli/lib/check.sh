# tests/cli/lib/check.sh - what the command-line tests share.  Source it
# from a test script run as `bash script.sh /path/to/paperball`:
#   . "$(dirname "$0")/lib/check.sh"
# It sets $pb (absolute path of the program) and $fails, and defines:
#   fail MESSAGE                 count a failure
#   check NAME EXPECTED ACTUAL   equal strings
#   contains NAME NEEDLE TEXT    NEEDLE occurs in TEXT
#   status CMD...                prints CMD's exit status (output discarded)
#   skip REASON                  reports the test skipped (ctest: SKIP_RETURN_CODE 77)
#   flip_byte FILE OFFSET        inverts the byte at OFFSET (a damaged file,
#                                whatever the byte was: writing a fixed value
#                                left the file whole when it held that value)
#   ctrl_c LOG PATTERN CMD...    runs CMD (standard error into LOG) as at a
#                                terminal and presses Ctrl-C (SIGINT to its
#                                whole process group) a second after PATTERN
#                                shows in LOG; returns CMD's status
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
flip_byte() {
  local b
  b=$(od -An -tu1 -j "$2" -N1 "$1" 2>/dev/null | tr -d ' ')
  [ -n "$b" ] || { fail "flip_byte: $1 has no byte $2"; return; }
  printf '%b' "\\0$(printf '%03o' $((255 - b)))" | dd of="$1" bs=1 seek="$2" conv=notrunc status=none
}
ctrl_c() {
  # A session of its own, SIGINT not ignored: a shell's & would start CMD
  # with SIGINT ignored, which no terminal does (hence python).
  python3 - "$@" <<'PY'
import os, signal, subprocess, sys, time
log, pattern, cmd = sys.argv[1], sys.argv[2], sys.argv[3:]
p = subprocess.Popen(cmd, start_new_session=True, stdout=subprocess.DEVNULL, stderr=open(log, "w"),
                     preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
for _ in range(1200):
    if pattern in open(log).read() or p.poll() is not None:
        break
    time.sleep(0.1)
time.sleep(1)
if p.poll() is None:
    os.killpg(p.pid, signal.SIGINT)
st = p.wait()
sys.exit(st if st >= 0 else 128 - st)
PY
}
finish() {
  echo "$fails failed"
  [ "$fails" -eq 0 ]
  exit
}
# copy_scripts: a copy of the repository's scripts/ in ./repo, with an empty
# repo/results, so that a script writing results/ runs there and leaves the
# repository's results as they are (it finds its results directory beside
# its own scripts/).  Skips the test without python3, which such scripts use.
# results_sum FILE...: a checksum of those files of the repository's
# results/, to show them untouched.
copy_scripts() {
  command -v python3 >/dev/null || skip "no python3"
  mkdir -p repo/results
  cp -r "$(dirname "${BASH_SOURCE[0]}")/../../../scripts" repo/
}
results_sum() {
  local d f
  d=$(cd "$(dirname "${BASH_SOURCE[0]}")/../../../results" && pwd)
  for f in "$@"; do cat "$d/$f" 2>/dev/null; done | cksum
}
