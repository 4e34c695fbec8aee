# scripts/lib.sh - what the scripts that write results/ share: where the
# program is, and the provenance lines (commit, machine, date) of a table.
# Source it with: . "$(dirname "$0")/lib.sh" [BUILD_DIR]
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${1:-$root/build}
pb=$build/paperball
if [ ! -x "$pb" ]; then
  echo "$(basename "$0"): $pb not built (cmake -S . -B build && cmake --build build)" >&2
  exit 2
fi
commit=$(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo unknown)
dirty=$(git -C "$root" status --porcelain --untracked-files=no -- . ':!results' 2>/dev/null | grep -q . && echo " (with uncommitted changes)" || true)
cpu=$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//')
machine="$cpu, $(nproc) cores, $(free -g | awk '/Mem:/{print $2}') GiB; $(uname -sr)"
