#!/usr/bin/env bash
# Match values of the triple fields (docs/match.md): for every triple field
# up to a largest side, in order of area, `paperball solve --match` under a
# time limit, and beside it the single-goal value of `paperball solve`.
# Writes results/match.md and results/match.csv.
#
# Usage: scripts/match_tables.sh [--time-limit SECONDS] [--memory SIZE]
#                                [--threads N] [--max-side N] [--build DIR]
#   --time-limit  wall-clock limit per field and per solve (default 120:
#                 the machine these tables were made on is shared)
#   --memory      table memory per run (default 256M)
#   --threads     search threads (default 1)
#   --max-side    largest W and L tried (default 8)
# To save time a field is skipped (and listed as skipped) when a shorter
# field with the same goal and width did not finish within the limit.
set -euo pipefail
limit=120
memory=256M
threads=1
maxside=8
builddir=
. "$(dirname "$0")/lib.sh"
pb_options --time-limit=limit --memory=memory --threads=threads --max-side=maxside --build=builddir -- "$@"
pb_program "$builddir"
started=$(date -u '+%Y-%m-%d %H:%M UTC')
t0=$(date +%s)
load=$(cut -d' ' -f1-3 /proc/loadavg)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# Ctrl-C or SIGTERM (lib.sh): the field being solved is cut short, which
# its status 3 would not tell from the time limit: no page, status 3.
pb_stop_trap "$work/stopped"

# Triple fields: G, W, L even, G <= W <= L; by area, then L, then G.
fields=$(for w in $(seq 2 2 "$maxside"); do for l in $(seq "$w" 2 "$maxside"); do for g in $(seq 2 2 "$w"); do
  echo "$((w * l)) $l $g $w"; done; done; done | sort -n -k1,1 -k2,2 -k3,3 | awk '{print $3";"$4";"$2}')

declare -A failed
n=0
for fl in $fields; do
  n=$((n + 1))
  gw=${fl%;*}
  if [ -n "${failed[$gw]:-}" ]; then
    printf '%s\tskipped\t\t\n' "$fl" >> "$work/index.tsv"
    continue
  fi
  echo "[$(date -u +%H:%M:%S)] ($fl)" >&2
  set +e
  pb_run "$pb" solve --match --rules triple --field "$fl" --threads "$threads" --memory "$memory" \
    --time-limit "$limit" --json --quiet > "$work/$n.match.json" 2> "$work/$n.match.err"
  sm=$?
  pb_stopped && break
  pb_run "$pb" solve --rules triple --field "$fl" --threads "$threads" --memory "$memory" \
    --time-limit "$limit" --json --quiet > "$work/$n.single.json" 2> "$work/$n.single.err"
  ss=$?
  set -e
  pb_stopped && break
  printf '%s\t%s\t%s\t%s\n' "$fl" "$n" "$sm" "$ss" >> "$work/index.tsv"
  [ $sm -eq 0 ] || failed[$gw]=1
done
if pb_stopped; then
  echo "scripts/match_tables.sh: stopped; no page written" >&2
  exit 3
fi
elapsed=$(( $(date +%s) - t0 ))

python3 - "$work" "$root/results" "$limit" "$memory" "$threads" "$maxside" "$commit" "$machine" \
  "$started" "$load" "$elapsed" <<'PY'
import csv, json, os, sys
work, outdir, limit, memory, threads, maxside, commit, machine, started, load, elapsed = sys.argv[1:]

def load_json(path):
    try:
        return json.load(open(path))
    except Exception:
        return {}

rows = []
for line in open(os.path.join(work, "index.tsv")):
    fl, n, sm, ss = line.rstrip("\n").split("\t")
    if n == "skipped":
        rows.append({"field": fl, "status": "skipped"})
        continue
    m = load_json(os.path.join(work, f"{n}.match.json"))
    s = load_json(os.path.join(work, f"{n}.single.json"))
    ok = sm == "0" and m.get("complete")
    row = {"field": fl, "status": "solved" if ok else ("stopped" if sm == "3" else f"error {sm}")}
    if ok:
        d = m["goal_difference"]
        best = [t["route"] for i, t in enumerate(m["first_turns"]) if t["goal_difference"] == d and t["class"] == i]
        last = m["line"][-1]["score"] if m["line"] else {"top": 0, "bottom": 0}
        row.update(diff=d, value=m["value"], best=best, nbest=sum(1 for t in m["first_turns"] if t["goal_difference"] == d),
                   routes=len(m["first_turns"]), classes=m["classes"], line_goals=m["line_goals"],
                   line_turns=len(m["line"]), final=f"{last['top']} : {last['bottom']}", nodes=m["nodes"],
                   seconds=m["seconds"],
                   spread=sorted({t["goal_difference"] for t in m["first_turns"]}))
    row["single"] = s.get("value", "unknown") if ss == "0" and s.get("complete") else "not solved"
    row["single_seconds"] = s.get("seconds", "")
    rows.append(row)

cmd = (f"scripts/match_tables.sh --time-limit {limit} --memory {memory} --threads {threads} "
       f"--max-side {maxside}")
tmp = os.path.join(outdir, "match.csv.tmp")
with open(tmp, "w", newline="") as f:
    w = csv.writer(f)
    w.writerow(["field", "status", "goal_difference", "value", "single_goal_value", "best_first_turns",
                "first_turn_differences", "routes", "classes", "line_turns", "line_goals", "line_final_score_top_bottom",
                "plies", "seconds", "single_seconds", "time_limit_s", "threads", "memory", "commit"])
    for r in rows:
        w.writerow([f"({r['field']})", r["status"], r.get("diff", ""), r.get("value", ""), r.get("single", ""),
                    " ".join(r.get("best", [])), " ".join(str(x) for x in r.get("spread", [])), r.get("routes", ""),
                    r.get("classes", ""), r.get("line_turns", ""), r.get("line_goals", ""), r.get("final", ""),
                    r.get("nodes", ""), "%.3f" % r["seconds"] if "seconds" in r else "",
                    "%.3f" % r["single_seconds"] if r.get("single_seconds", "") != "" else "", limit, threads,
                    memory, commit])
os.replace(tmp, os.path.join(outdir, "match.csv"))

md = ["# Match values of the triple fields\n",
      "Generated by `scripts/match_tables.sh`; do not edit by hand. Every figure comes from a run of",
      "`paperball solve --match` (match play, docs/match.md) and, beside it, `paperball solve` (one game",
      "is one goal); the full data is in `results/match.csv`.\n",
      f"- command: `{cmd}`",
      f"- time limit: **{limit} s (wall clock) per field and per solve**, chosen for a shared 2-core machine",
      f"- commit: {commit}",
      f"- machine: {machine}; load average at the start {load} (shared: wall-clock times are longer",
      "  than the CPU needs)",
      f"- started: {started}; the whole run took {int(elapsed) // 60} min {int(elapsed) % 60} s\n",
      "Fields (G;W;L), all even with G ≤ W ≤ L, in order of area. Top moves first; values are for Top.",
      "*Match* is the goal difference Top reaches under perfect play (its sign is win/draw/loss);",
      "*single goal* is the value of the game that ends with the first goal. *Best first turns* keep",
      "the match value (one per left-right mirror class; the count of all such routes in brackets).",
      "*Line*: the line of perfect play printed by `solve --match` (at each step the first",
      "value-keeping ply in generation order), its number of turns, goals and final score",
      "(Top : Bottom). *Differences* lists the values of all first turns. To save time a field is",
      "skipped when a shorter field with the same goal and width did not finish.\n",
      "| field | match | single goal | best first turns | differences | line: turns, goals, score | plies | time s |",
      "|---|---|---|---|---|---|---|---|"]
for r in rows:
    if r["status"] == "skipped":
        md.append(f"| ({r['field']}) | skipped | | | | | | |")
        continue
    if r["status"] != "solved":
        md.append(f"| ({r['field']}) | not finished within {limit} s | {r['single']} | | | | | |")
        continue
    best = ", ".join(r["best"][:4]) + (f" (+{len(r['best']) - 4} more)" if len(r["best"]) > 4 else "")
    md.append(f"| ({r['field']}) | **{r['diff']:+d}** ({r['value']}) | {r['single']} | {best} ({r['nbest']}) | "
              f"{', '.join('%+d' % x for x in r['spread'])} | {r['line_turns']}, {r['line_goals']}, {r['final']} | "
              f"{r['nodes']} | {r['seconds']:.2f} |")
differ = [r for r in rows if r["status"] == "solved" and r["single"] in ("win", "draw", "loss") and r["value"] != r["single"]]
md.append("")
if differ:
    md.append("Fields where the match and the single goal differ in sign: " +
              ", ".join(f"({r['field']}) match {r['value']}, single goal {r['single']}" for r in differ) + ".")
else:
    md.append("On every field solved both ways the match value has the sign of the single-goal value.")
tmp = os.path.join(outdir, "match.md.tmp")
open(tmp, "w").write("\n".join(md) + "\n")
os.replace(tmp, os.path.join(outdir, "match.md"))
print(f"wrote {outdir}/match.md and match.csv ({len(rows)} fields)", file=sys.stderr)
PY
