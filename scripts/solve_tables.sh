#!/usr/bin/env bash
# Solves every field from (2;2;2) upwards, in order of size, for each rule
# set (book; hockey S=1 and S=0, dead end draw and loss; triple), each run
# under a time limit, and writes results/solved.md and results/solved.csv.
# A field that does not finish is recorded with how far it got; the fields
# with the same goal width that are no narrower and no shorter are then not
# tried (they are assumed no easier: a wider goal can be easier, so other
# goal widths go on), and a rule set stops after --misses such fields.
# With --table values each field's value alone is proven (no first-turn
# classes), which reaches much larger fields: results/values.md and .csv.
#
# Usage: scripts/solve_tables.sh [--time-limit SECONDS] [--hash SIZE]
#                                [--threads N] [--max-side N] [--build DIR]
#                                [--jobs N] [--keep DIR] [--misses N]
#                                [--table solved|values] [--max-area N]
#   --time-limit  wall-clock limit per field (default 600; the goal is
#                 "within one hour": pass 3600 for that)
#   --hash        table memory per run (default 1G)
#   --threads     search threads (default 1: the machine is shared)
#   --max-side    largest W and L tried (default 12)
#   --max-area    largest area W*L tried (default: no other bound)
#   --jobs        rule variants solved at once (default 1), each its own
#                 process with --threads threads
#   --misses      unfinished fields after which a rule set stops (default 2;
#                 1 stops at the first)
#   --table       solved (default): the value and every first-turn class
#                 (--first-turns), into results/solved.md and .csv; values:
#                 the value only, into results/values.md and .csv
#   --keep        keep each field's run in DIR and reuse it when the script
#                 runs again with the same command and program commit: a
#                 run stopped (Ctrl-C, a lost machine) goes on where it was;
#                 scripts/kept_runs.sh carries the finished runs to another
#                 machine through the repository
# Ctrl-C or SIGTERM (to the script or its whole process group) stops every
# field being solved; the fields finished before are kept (--keep), the ones
# cut short are not (they would read as stopped by the time limit), no page
# is written, and the script exits with status 3: run it again to go on.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
build=$root/build
limit=600
hash=1G
threads=1
maxside=12
maxarea=
jobs=1
keep=
misses=2
table=solved
pb_options --time-limit=limit --hash=hash --threads=threads --max-side=maxside --build=build --jobs=jobs \
  --keep=keep --misses=misses --table=table --max-area=maxarea -- "$@"
case $misses in
  '' | *[!0-9]* | 0) echo "scripts/solve_tables.sh: --misses must be a whole number from 1 up" >&2; exit 2 ;;
esac
case $maxarea in
  '') maxarea=$((maxside * maxside)) ;;
  *[!0-9]* | 0) echo "scripts/solve_tables.sh: --max-area must be a whole number from 1 up" >&2; exit 2 ;;
esac
case $table in
  solved) classes=(--first-turns) ;;
  values) classes=() ;;
  *) echo "scripts/solve_tables.sh: --table must be solved or values" >&2; exit 2 ;;
esac
pb_program "$build"
started=$(pb_now)
load=$(cut -d' ' -f1-3 /proc/loadavg)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# A stop (Ctrl-C, SIGTERM; lib.sh): the solver saves nothing here and exits
# 3, which would read as the time limit, so a field it was solving is left
# without its status and --keep does not keep it.
pb_stop_trap "$work/stopped"
if [ -n "$keep" ]; then
  mkdir -p "$keep"
  keep=$(cd "$keep" && pwd)
fi
# The provenance is the program's own commit (it may be built apart from
# the checkout, e.g. in a build directory kept for a long run).
pbcommit=$("$pb" --version | awk '{print $NF}' | tr -d ')')
commit=$pbcommit

# Fields in order of size: area W*L, then L, then G (all even, G <= W).
fields=$(for w in $(seq 2 2 "$maxside"); do for l in $(seq 2 2 "$maxside"); do for g in $(seq 2 2 "$w"); do
  [ $((w * l)) -gt "$maxarea" ] || echo "$((w * l)) $l $g $w"; done; done; done | sort -n -k1,1 -k2,2 -k3,3 | awk '{print $3";"$4";"$2}')

variants=("book|--rules book"
          "hockey S=1, dead end draws|--rules hockey --setback 1 --dead-end draw"
          "hockey S=1, dead end loses|--rules hockey --setback 1 --dead-end loss"
          "hockey S=0, dead end draws|--rules hockey --setback 0 --dead-end draw"
          "hockey S=0, dead end loses|--rules hockey --setback 0 --dead-end loss")
if "$pb" moves --rules triple --field '2;6;8' 2>/dev/null | tail -1 | awk '{exit !($1 > 0)}'; then
  variants+=("triple|--rules triple")
fi

# settled STATUS JSON: whether a run settled its field: with --table solved
# it ended well (status 0: the value and every class); with --table values
# its value is proven, even if the line after it was stopped by the limit.
settled() {
  if [ "$table" = solved ]; then
    [ "$1" -eq 0 ]
  else
    python3 -c 'import json, sys; sys.exit(json.load(open(sys.argv[1])).get("value") not in ("win", "draw", "loss"))' \
      "$2" 2>/dev/null
  fi
}

# solve_variant K NAME OPTS: the fields of one rule variant in order of
# size, into $work/K.tsv (name, field, status, command, run directory, and
# whether the run was made now or kept from an earlier one, per line),
# skipping those dominated by an unfinished field (same G, W and L
# no smaller) and stopping after $misses unfinished fields.  With --keep, a
# field already run by the same command and program is taken from there.
solve_variant() {
  local k=$1 name=$2 opts=$3 fl cmd id out st how g w l mg mw ml missed="" nmissed=0 m
  pb_stop_trap "$work/stopped" # a subshell of its own (&): set again
  : > "$work/$k.tsv"
  for fl in $fields; do
    pb_stopped && return 0
    IFS=';' read -r g w l <<< "$fl"
    for m in $missed; do
      IFS=';' read -r mg mw ml <<< "$m"
      if [ "$mg" -eq "$g" ] && [ "$mw" -le "$w" ] && [ "$ml" -le "$l" ]; then continue 2; fi
    done
    # shellcheck disable=SC2086
    "$pb" info $opts --field "$fl" >/dev/null 2>&1 || continue   # not a field of this rule set
    cmd="paperball solve $opts --field '$fl'${classes:+ ${classes[*]}} --threads $threads --hash $hash --time-limit $limit --json --quiet"
    id=$(printf '%s %s' "$pbcommit" "$cmd" | sha1sum | cut -c1-16)
    # A run is a directory: the JSON (out.txt), standard error (err.txt),
    # the exit status (rc, written last: a run without it is begun again)
    # and when it ended (ended, seconds since 1970), the layout that
    # scripts/kept_runs.sh carries to another machine.
    out=${keep:-$work}/$id
    if [ -n "$keep" ] && [ -s "$out/rc" ]; then
      st=$(cat "$out/rc")
      how=kept
      echo "[$(date -u +%H:%M:%S)] $name ($fl): kept (status $st)" >&2
    else
      how=made
      echo "[$(date -u +%H:%M:%S)] $name ($fl)" >&2
      mkdir -p "$out"
      set +e
      # shellcheck disable=SC2086
      pb_run "$pb" solve $opts --field "$fl" ${classes[@]+"${classes[@]}"} --threads "$threads" --hash "$hash" \
        --time-limit "$limit" --json --quiet > "$out/out.txt" 2> "$out/err.txt"
      st=$?
      set -e
      pb_stopped && return 0 # cut short: no status, not kept
      date +%s > "$out/ended"
      echo "$st" > "$out/rc"
    fi
    printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$name" "$fl" "$st" "$cmd" "$out" "$how" >> "$work/$k.tsv"
    if ! settled "$st" "$out/out.txt"; then
      missed="$missed $fl"
      nmissed=$((nmissed + 1))
      [ "$nmissed" -lt "$misses" ] || break
    fi
  done
}

# The variants, --jobs at a time; their tables joined in the listed order.
k=0
for v in "${variants[@]}"; do
  k=$((k + 1))
  solve_variant "$k" "${v%%|*}" "${v#*|}" &
  while [ "$(jobs -rp | wc -l)" -ge "$jobs" ] && ! pb_stopped; do wait -n || true; done
  pb_stopped && break
done
pb_wait_all
if pb_stopped; then
  if [ -n "$keep" ]; then
    echo "scripts/solve_tables.sh: stopped; the fields finished are kept in $keep: run the same command again to go on" >&2
  else
    echo "scripts/solve_tables.sh: stopped; nothing kept (without --keep)" >&2
  fi
  exit 3
fi
: > "$work/index.tsv"
for i in $(seq 1 "$k"); do cat "$work/$i.tsv" >> "$work/index.tsv"; done

python3 - "$work" "$root/results" "$limit" "$hash" "$threads" "$commit" "$machine" "$started" "$load" "$misses" \
  "$table" "$maxside" "$maxarea" <<'PY'
import csv, json, os, re, sys, time
work, outdir, limit, hsize, threads, commit, machine, started, load, misses, table, maxside, maxarea = sys.argv[1:]
# The bounds of the fields tried, as the command gave them (none: the defaults).
bounds = (f" --max-side {maxside}" if maxside != "12" else "") + \
    (f" --max-area {maxarea}" if int(maxarea) < int(maxside) ** 2 else "")
values = table == "values"  # the value alone, or the value and every first-turn class
# Fields a longer run proved (results/long_solve_*.md, exit status 0; for this
# table with every first-turn class): named in the rows the limit left open.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(outdir)), "scripts"))
sys.dont_write_bytecode = True  # no __pycache__ left in scripts/
from plots import long_solved
longs = {k: v for k, v in long_solved(outdir).items() if values or v[1]}
rows = []
made = 0
ends = []  # when each run ended: its status file's time (the file is written as the run ends)
with open(os.path.join(work, "index.tsv")) as idx:
    for line in idx:
        name, fl, st, cmd, out, how = line.rstrip("\n").split("\t")
        try:
            d = json.load(open(os.path.join(out, "out.txt")))
        except Exception:
            d = {}
        rows.append((name, fl, int(st), cmd, d))
        made += how == "made"
        try:
            ends.append(float(open(os.path.join(out, "ended")).read()))
        except (OSError, ValueError):  # a run without its time: when its status was written
            ends.append(os.path.getmtime(os.path.join(out, "rc")))

def utc(t):
    return time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime(t))

def best_turns(d):
    v = d.get("value")
    if v not in ("win", "draw", "loss"):
        return []
    return [t["route"] for t in d["first_turns"] if t["value"] == v]

def solved(st, d):
    """The field settled: its value and every class (solved), its value (values; a proven
    value stands even where the limit stopped the line after it)."""
    if values:
        return d.get("value") in ("win", "draw", "loss")
    return st == 0 and bool(d.get("complete"))

csv_tmp = os.path.join(outdir, f"{table}.csv.tmp")
with open(csv_tmp, "w", newline="") as f:
    w = csv.writer(f)
    if values:
        w.writerow(["rules", "field", "status", "value", "best_first_turn", "line", "root_pn", "root_dn",
                    "nodes", "seconds", "peak_memory_mib", "threads", "hash", "time_limit_s", "command", "commit"])
    else:
        w.writerow(["rules", "field", "status", "value", "best_first_turns", "routes", "classes", "classes_proven",
                    "nodes", "seconds", "peak_memory_mib", "threads", "hash", "time_limit_s", "command", "commit"])
    for name, fl, st, cmd, d in rows:
        status = "solved" if solved(st, d) else ("stopped" if st == 3 else f"error {st}")
        if values:
            done = solved(st, d)  # the root's numbers only where they say how far a search got
            mid = [(d.get("best") or "") if done else "", " ".join(d.get("pv", [])),
                   "" if done else d.get("root_pn", ""), "" if done else d.get("root_dn", "")]
        else:
            mid = [" ".join(best_turns(d)), len(d.get("first_turns", [])), d.get("classes", ""),
                   d.get("classes_solved", "")]
        w.writerow([name, f"({fl})", status, d.get("value", "")] + mid +
                   [d.get("nodes", ""), "%.3f" % d.get("seconds", 0), "%.1f" % (d.get("peak_memory_bytes", 0) / 2**20),
                    threads, hsize, limit, cmd, commit])
os.replace(csv_tmp, os.path.join(outdir, f"{table}.csv"))

md = []
if values:
    md.append("# Values of fields\n")
    md.append("Generated by `scripts/solve_tables.sh --table values`; do not edit by hand. Each field's value")
    md.append("alone, proven by `paperball solve` (the exact solver, docs/solver.md; no first-turn classes:")
    md.append("those are in results/solved.md, for the smaller fields where they all fall), with one first")
    md.append("turn that keeps it and a line of perfect play. The full data, with the command of each run,")
    md.append("is in `results/values.csv`.\n")
else:
    md.append("# Solved fields\n")
    md.append("Generated by `scripts/solve_tables.sh`; do not edit by hand. Every figure comes from a run of")
    md.append("`paperball solve` (the exact solver, docs/solver.md); the full data, with the command of each")
    md.append("run, is in `results/solved.csv`.\n")
md.append(f"- script: `scripts/solve_tables.sh --time-limit {limit} --hash {hsize} --threads {threads} --misses {misses}"
          + bounds + (" --table values`" if values else "`"))
md.append(f"- time limit used: **{limit} s (wall clock) per field** (the goal is one hour; run with")
md.append("  `--time-limit 3600` for that)")
md.append(f"- commit: {commit}")
md.append(f"- machine: {machine}; load average at the start {load} (the machine is shared,")
md.append("  so wall-clock times are longer than the CPU needs)")
md.append(f"- started: {started}")
# Where runs were kept from earlier runs of the script (--keep), the page's start is not the runs'.
kept = len(rows) - made
md.append(f"- runs: {len(rows)}" + (f", {made} made by this run of the script and {kept} kept from earlier ones"
                                     " (`--keep`)" if kept else "")
          + ((f"; they ended at {utc(min(ends))}" if utc(min(ends)) == utc(max(ends)) else
              f"; they ended between {utc(min(ends))} and {utc(max(ends))}") if ends else "") + "\n")
def area(fl):
    g, w, l = (int(x) for x in fl.split(";"))
    return w * l
def later_key(name, fl):
    return (name, tuple(int(x) for x in fl.split(";")))

def later_note(name, fl):
    """"; solved by a longer run: ..." for a field the limit left open that a
    longer run proved, else ""."""
    k = later_key(name, fl)
    if k not in longs:
        return ""
    page = longs[k][2]
    return f"; solved by a longer run: {longs[k][0]} ([{page}]({os.path.basename(page)}))"

largest = {}
for name, fl, st, cmd, d in rows:
    if solved(st, d):
        largest.setdefault(name, [])
        if not largest[name] or area(fl) > area(largest[name][0][0]):
            largest[name] = [(fl, d["value"])]
        elif area(fl) == area(largest[name][0][0]):
            largest[name].append((fl, d["value"]))
md.append(f"**Largest fields {'whose value is proven' if values else 'solved'}** (by area W·L), per rule variant:\n")
for name in dict.fromkeys(r[0] for r in rows):
    got = ", ".join(f"({fl}) {v}" for fl, v in largest.get(name, [])) or "none"
    later = [f"({fl}) {longs[later_key(name, fl)][0]}" for n, fl, st, cmd, d in rows
             if n == name and not solved(st, d) and later_key(name, fl) in longs]
    md.append(f"- {name}: {got}" + (f"; beyond the limit, by a longer run: {', '.join(later)}" if later else ""))
md.append("")
md.append(("Fields" if not bounds else f"Fields up to side {maxside} and area {maxarea}")
          + " are tried in order of size (area W·L, then L, then G; all even, G ≤ W). A field that")
md.append("does not finish within the limit is listed with how far it got; the fields with the same goal")
md.append("width G that are no narrower and no shorter are then not tried (a wider goal can make a field")
md.append(f"easier, so the other widths go on), and a rule set stops after {misses} unfinished")
md.append("field" + ("" if misses == "1" else "s") + ". *Value* is for the player to move at the start (Top")
md.append("by default; the start is symmetric, so it does not depend on who starts). ")
if values:
    md[-1] += "*A best first turn*"
    md.append("is one first turn that keeps that value, and *line* the first turns of a line of perfect play")
    md.append("(`solve`'s line: each side keeps the value). For a field not finished, *line* gives the root's")
    md.append("proof and disproof numbers when the limit struck (of the question the search was asking).")
    md.append("*Nodes* are single steps searched (plies for triple).\n")
    md.append("The map of each rule set is drawn from `results/values.csv` by `scripts/plots.sh`.")
else:
    md[-1] += "*Best first turns*"
    md.append("are the first turns that keep that value (the winning, or drawing, first turns; all first")
    md.append("turns when the start is lost); first turns are grouped into left-right mirror classes and")
    md.append("solved one class at a time. *Nodes* are single steps searched (plies for triple).\n")
    md.append("The map of each rule set and the plot of solve times are drawn from `results/solved.csv`")
    md.append("by `scripts/plots.sh` (results/plots.md).\n")
    md.append("![solve time against field area](img/solve-time.svg)")
cur = None
for name, fl, st, cmd, d in rows:
    if name != cur:
        cur = name
        md.append(f"\n## {name}\n")
        slug = re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")
        md.append(f"![{'values' if values else 'solved fields'}: {name}](img/{'value' if values else 'solved'}-map-{slug}.svg)\n")
        if values:
            md.append("| field | value | a best first turn | line | nodes | time s | peak MiB |")
        else:
            md.append("| field | value | best first turns | routes (classes) | nodes | time s | peak MiB |")
        md.append("|---|---|---|---|---|---|---|")
    tail = f"{d.get('nodes', '')} | {d.get('seconds', 0):.3f} | {d.get('peak_memory_bytes', 0) / 2**20:.0f} |"
    if values and solved(st, d):
        pv = d.get("pv", [])
        line = " ".join(pv[:8]) + (f" (+{len(pv) - 8} turns)" if len(pv) > 8 else "")
        if d.get("stopped"):  # the value proven, the line after it cut by the limit
            line = (line + " " if line else "") + "(the line cut by the time limit)"
        best = "none: every first turn loses" if d["value"] == "loss" else (d.get("best") or "")
        md.append(f"| ({fl}) | **{d['value']}** | {best} | {line} | {tail}")
    elif values:
        got = (f"not finished within {limit} s: root numbers {d.get('root_pn', '?')}/{d.get('root_dn', '?')}"
               if d else f"failed (exit status {st})")
        md.append(f"| ({fl}) | — | — | {got}{later_note(name, fl)} | {tail}")
    elif solved(st, d):
        bt = best_turns(d)
        shown = ", ".join(bt[:6]) + (f" (+{len(bt) - 6} more)" if len(bt) > 6 else "")
        if d["value"] == "loss":
            shown = "none: every first turn loses"
        md.append(f"| ({fl}) | **{d['value']}** | {shown} | {len(d['first_turns'])} ({d['classes']}) | "
                  f"{d['nodes']} | {d['seconds']:.3f} | {d['peak_memory_bytes'] / 2**20:.0f} |")
    else:
        got = ""
        if d:
            got = (f"not finished within {limit} s: {d.get('classes_solved', 0)} of {d.get('classes', '?')} "
                   f"first-turn classes proven, value {d.get('value', 'unknown')}")
            ft = d.get("first_turns", [])
            proven = [f"{t['route']} {t['value']}" for i, t in enumerate(ft)
                      if t["value"] != "unknown" and t["class"] == i]
            if proven:
                got += "; proven: " + ", ".join(proven[:8]) + (f" (+{len(proven) - 8} more)" if len(proven) > 8 else "")
        else:
            got = f"failed (exit status {st})"
        got += later_note(name, fl)
        md.append(f"| ({fl}) | — | {got} | {len(d.get('first_turns', []))} ({d.get('classes', '?')}) | "
                  f"{d.get('nodes', '')} | {d.get('seconds', 0):.0f} | {d.get('peak_memory_bytes', 0) / 2**20:.0f} |")
md_tmp = os.path.join(outdir, f"{table}.md.tmp")
open(md_tmp, "w").write("\n".join(md) + "\n")
os.replace(md_tmp, os.path.join(outdir, f"{table}.md"))
print(f"wrote {outdir}/{table}.md and {table}.csv ({len(rows)} runs)", file=sys.stderr)
PY
# The pictures the page shows, from the table just written.
python3 "$root/scripts/plots.py" "$root" "$commit" >/dev/null
