# scripts/lib.sh - what every script that writes results/ shares: strict
# mode, the repository root, the program, one rule for the provenance of a
# table (commit, machine, date), and whole-or-nothing writes.
# Source it first:  . "$(dirname "$0")/lib.sh"
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)

# $pb: the program; build/paperball unless pb_program names another build.
pb=$root/build/paperball

# pb_program BUILD_DIR: sets $pb to the paperball built in BUILD_DIR (default
# build/), or stops (status 2) if it is not built.
pb_program() {
  pb=${1:-$root/build}/paperball
  if [ ! -x "$pb" ]; then
    echo "$(basename "$0"): $pb not built (cmake -S . -B build && cmake --build build)" >&2
    exit 2
  fi
}

# The provenance of a table, the same rule for every script:
#   $commit   short hash, plus " (with uncommitted changes)" when tracked
#             files outside results/ differ from it
#   $machine  CPU model, cores, memory (MemTotal in GiB, rounded), kernel
#   pb_now    the date and time, UTC
commit=$(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo unknown)
if git -C "$root" status --porcelain --untracked-files=no -- . ':!results' 2>/dev/null | grep -q .; then
  commit="$commit (with uncommitted changes)"
fi
machine="$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//'), $(nproc) cores, \
$(awk '/MemTotal/ {printf "%.0f", $2 / 1048576}' /proc/meminfo) GiB; $(uname -sr)"
pb_now() { date -u '+%Y-%m-%d %H:%M UTC'; }

# pb_write FILE: standard input into FILE, whole or not at all: it goes to a
# temporary file beside FILE, renamed over FILE once complete.
pb_write() {
  local tmp
  tmp=$(mktemp "$1.tmp.XXXXXX")
  if cat > "$tmp" && mv -f "$tmp" "$1"; then
    echo "wrote ${1#"$root"/}" >&2
  else
    rm -f "$tmp"
    return 1
  fi
}
