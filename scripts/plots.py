#!/usr/bin/env python3
"""plots.py - SVG plots of the results tables (standard library only).

Reads results/solved.csv, results/values.csv, results/enumeration.csv, results/depths.csv (written by
scripts/plots.sh) and results/long_solve_*.md and writes into results/img/:
  solved-map-RULES.svg   the solved frontier of one rule variant: a grid of
                         width W x length L, each cell split into stripes
                         for the goal widths G = 2, 4, ..., W; colour = value
                         for the player to move at the start; '?' = stopped
                         by the time limit; blank = not tried
  value-map-RULES.svg    the same from results/values.csv (the value alone)
  enumeration-growth.svg positions and turn sequences per depth, log scale
  solve-time.svg         solve time against field area W*L, log scale
  enumeration-map.svg    from results/enumeration.csv: the fields whose whole
                         games are counted, per rule set, by order of magnitude
  long-solve-FIELD.svg   from each results/long_solve_*.md (scripts/long_solve.sh):
                         the root's proof and disproof numbers and the pace of
                         the search over the run, from its progress lines;
                         where they name what each question is for, a mark
                         where it changes (another first-turn class, the line)
  along-game-nodes-NAME.svg
                         from each results/along_game_*.md (scripts/along_game.sh):
                         the nodes each position of the game took, against the
                         turns played, coloured by its value
Usage: scripts/plots.py ROOT COMMIT   (ROOT: the repository)
Every SVG says in its <desc> which table and commit it was drawn from."""
import csv
import math
import os
import re
import sys
from xml.sax.saxutils import escape

# Set by main() from the command line (the module is also imported, by
# scripts/solve_tables.sh, for long_solved alone).
ROOT = COMMIT = IMG = ""
VALUE_COLOUR = {"win": "#3b9a4a", "loss": "#d62728", "draw": "#9a9a9a"}
SERIES = ["#1f5fbf", "#d62728", "#3b9a4a", "#9467bd", "#ff7f0e", "#17becf", "#8c564b"]
FONT = 'font-family="DejaVu Sans, Helvetica, Arial, sans-serif"'


def svg_open(w, h, title, source):
    return [f'<?xml version="1.0" encoding="UTF-8"?>',
            f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}" {FONT}>',
            f"<title>{escape(title)}</title>",
            f"<desc>Drawn by scripts/plots.py from {source} (commit {COMMIT}).</desc>",
            f'<rect width="{w}" height="{h}" fill="#fff"/>',
            f'<text x="{w / 2}" y="24" text-anchor="middle" font-size="16" font-weight="bold">{escape(title)}</text>']


def write(name, lines, source=""):
    """Writes results/img/NAME and says so (with " from SOURCE" if given:
    scripts/plots.sh reads these lines to link the pictures)."""
    path = os.path.join(IMG, name)
    with open(path + ".tmp", "w") as f:
        f.write("\n".join(lines + ["</svg>"]) + "\n")
    os.replace(path + ".tmp", path)
    print("wrote results/img/" + name + (" from " + source if source else ""))


def slug(rules):
    return re.sub(r"[^a-z0-9]+", "-", rules.lower()).strip("-")


def field_gwl(text):
    g, w, l = (int(x) for x in re.match(r"\((\d+);(\d+);(\d+)\)", text).groups())
    return g, w, l


def grid_cells(cols, nrows, u, ox, oy, cells):
    """The goal stripes of a width x length grid (W = 2, 4, ... across from
    ox, L down from oy, cells u wide), each cell split into the goal widths
    G = 2, 4, ..., W: yields (x, y, width, (G, W, L), row) for each stripe
    whose field has a row in cells."""
    for i in range(cols):
        for j in range(nrows):
            w, l = 2 * i + 2, 2 * j + 2
            goals = list(range(2, w + 1, 2))
            sw = u / len(goals)
            for k, g in enumerate(goals):
                r = cells.get((g, w, l))
                if r is not None:
                    yield ox + i * u + k * sw, oy + j * u, sw, (g, w, l), r


def grid_frames(out, cols, nrows, u, ox, oy, size=12):
    """The grid's column (W) and row (L) numbers and its cells' frames."""
    for i in range(cols):
        out.append(f'<text x="{ox + i * u + u / 2}" y="{oy - 8}" text-anchor="middle" font-size="{size}">{2 * i + 2}</text>')
    for j in range(nrows):
        out.append(f'<text x="{ox - 8}" y="{oy + j * u + u / 2 + 4}" text-anchor="end" font-size="{size}">{2 * j + 2}</text>')
    for i in range(cols):
        for j in range(nrows):
            out.append(f'<rect x="{ox + i * u}" y="{oy + j * u}" width="{u}" height="{u}" fill="none" stroke="#999"/>')


def long_solved(results):
    """The fields a long solve proved (results/long_solve_*.md with exit
    status 0): {(variant, (G, W, L)): (value, first turns too, page)}, the
    variant named as in the tables' rules column and the value that of the
    player to move at the start.  Two pages that give one field different
    values stop the script (exit status 1)."""
    found = {}
    for name in sorted(os.listdir(results)):
        if not (name.startswith("long_solve_") and name.endswith(".md")):
            continue
        text = open(os.path.join(results, name)).read()
        cmd = re.search(r"^- command: `([^`]*)`", text, re.M)
        val = re.search(r"^value\s+(win|loss|draw)\b.*\(the player to move\)", text, re.M)
        if not (re.search(r"^- exit status: 0\b", text, re.M) and cmd and val):
            continue
        c = cmd.group(1)

        def opt(key, default):
            m = re.search(r"--" + key + r" (\S+)", c)
            return m.group(1) if m else default
        field = re.match(r"\(?(\d+)[,;](\d+)[,;](\d+)", opt("field", ""))
        if not field:
            continue
        rules = opt("rules", "book")
        if rules == "hockey":
            rules = "hockey S=%s, dead end %s" % (opt("setback", "1"),
                                                   "loses" if opt("dead-end", "draw") == "loss" else "draws")
        gwl = tuple(int(x) for x in field.groups())
        key, classes = (rules, gwl), "--first-turns" in c.split()
        if key in found and found[key][0] != val.group(1):
            sys.exit(f"plots.py: results/{name} and {found[key][2]} give ({';'.join(map(str, gwl))}) of {rules} "
                     f"different values")
        # Of several pages for one field, one with every first-turn class.
        if key not in found or classes or not found[key][1]:
            found[key] = (val.group(1), classes, "results/" + name)
    return found


def solved_maps(rows, kind="solved", longs=None):
    """The maps of results/solved.csv (kind solved) or results/values.csv
    (kind value).  A field the table left open that a long solve proved
    (longs: long_solved(); for the solved map, with every first turn) is
    drawn in its value's colour with a dot."""
    longs = longs or {}
    variants = []
    for r in rows:
        if r["rules"] not in variants:
            variants.append(r["rules"])
    for v in variants:
        cells = {}
        for r in rows:
            if r["rules"] == v:
                cells[field_gwl(r["field"])] = r
        ws = sorted({w for _, w, _ in cells}) or [2]
        ls = sorted({l for _, _, l in cells}) or [2]
        wmax, lmax = max(ws), max(ls)
        cols, nrows = wmax // 2, lmax // 2
        u = 46
        ox, oy = 70, 78
        title = f"{'Solved fields' if kind == 'solved' else 'Values of fields'}: {v}"
        # The open fields a long solve proved (drawn with a dot).
        later = {gwl: longs[(v, gwl)] for gwl, r in cells.items()
                 if r["status"] != "solved" and (v, gwl) in longs and (kind == "value" or longs[(v, gwl)][1])}
        width, height = max(ox + cols * u + 30, 9.5 * len(title) + 30, 520 if later else 400), oy + nrows * u + 110
        out = svg_open(width, height, title, "results/solved.csv" if kind == "solved" else "results/values.csv")
        out.append(f'<text x="{ox + cols * u / 2}" y="{oy - 26}" text-anchor="middle" font-size="12" fill="#444">width W</text>')
        out.append(f'<text x="{ox - 40}" y="{oy + nrows * u / 2}" text-anchor="middle" font-size="12" fill="#444" '
                   f'transform="rotate(-90 {ox - 40} {oy + nrows * u / 2})">length L</text>')
        for gx, y, sw, gwl, r in grid_cells(cols, nrows, u, ox, oy, cells):
            fill = VALUE_COLOUR.get(r["value"], "#fff") if r["status"] == "solved" else "#fff"
            if gwl in later:
                value, _, page = later[gwl]
                cx, cy = gx + sw / 2, y + u / 2
                out.append(f'<rect class="cell long" x="{gx:.1f}" y="{y}" width="{sw:.1f}" height="{u}" '
                           f'fill="{VALUE_COLOUR[value]}"><title>({gwl[0]};{gwl[1]};{gwl[2]}) {value}: '
                           f'solved by a longer run, {page}</title></rect>'
                           f'<circle cx="{cx:.1f}" cy="{cy:.1f}" r="4" fill="#fff" stroke="#222"/>')
                continue
            out.append(f'<rect class="cell {r["status"]}" x="{gx:.1f}" y="{y}" width="{sw:.1f}" height="{u}" '
                       f'fill="{fill}"><title>({gwl[0]};{gwl[1]};{gwl[2]}) {r["status"]} {r["value"]}</title></rect>')
            if r["status"] != "solved":
                out.append(f'<text x="{gx + sw / 2:.1f}" y="{y + u / 2 + 5}" text-anchor="middle" '
                           f'font-size="14" font-weight="bold">?</text>')
        grid_frames(out, cols, nrows, u, ox, oy)
        ly = oy + nrows * u + 30
        x = ox - 40
        for label, col in [("win", VALUE_COLOUR["win"]), ("loss", VALUE_COLOUR["loss"]), ("draw", VALUE_COLOUR["draw"])]:
            out.append(f'<rect x="{x}" y="{ly - 11}" width="14" height="14" fill="{col}"/>'
                       f'<text x="{x + 20}" y="{ly}" font-size="12">{label}</text>')
            x += 70
        out.append(f'<rect x="{x}" y="{ly - 11}" width="14" height="14" fill="#fff" stroke="#999"/>'
                   f'<text x="{x + 3}" y="{ly}" font-size="11" font-weight="bold">?</text>'
                   f'<text x="{x + 20}" y="{ly}" font-size="12">time limit</text>')
        if later:
            x += 100
            out.append(f'<circle cx="{x + 7}" cy="{ly - 4}" r="4" fill="#fff" stroke="#222"/>'
                       f'<text x="{x + 20}" y="{ly}" font-size="12">solved by a longer run</text>')
        out.append(f'<text x="{ox - 40}" y="{ly + 24}" font-size="11" fill="#444">Value for the player to move at '
                   'the start. Each cell is split</text>')
        out.append(f'<text x="{ox - 40}" y="{ly + 40}" font-size="11" fill="#444">into goal widths G = 2, 4, ..., W '
                   '(left to right); blank: not tried.</text>')
        write(f"{kind}-map-{slug(v)}.svg", out)


def legend_key(out, x, y, mark, label):
    """A legend entry right of a plot: a mark (SVG, drawn at x..x+22 on line
    y-4) and its label."""
    out.append(mark + f'<text x="{x + 28}" y="{y}" font-size="12">{escape(label)}</text>')


def line_mark(x, y, col, dash=""):
    return f'<path d="M{x} {y - 4}h22" stroke="{col}" stroke-width="2"{dash}/>'


def dot_mark(x, y, col, fill):
    return f'<circle cx="{x + 8}" cy="{y - 4}" r="4" fill="{fill}" stroke="{col}" stroke-width="1.5"/>'


def log_axis(out, x0, y0, w, h, lo, hi, label):
    """A log-scale y axis from 10^lo to 10^hi; returns the mapping."""
    def ymap(v):
        return y0 + h - (math.log10(v) - lo) / (hi - lo) * h
    for e in range(lo, hi + 1):
        y = ymap(10 ** e)
        out.append(f'<path d="M{x0} {y:.1f}H{x0 + w}" stroke="#e4e4e4"/>')
        out.append(f'<text x="{x0 - 6}" y="{y + 4:.1f}" text-anchor="end" font-size="11">10<tspan dy="-5" '
                   f'font-size="8">{e}</tspan></text>')
    out.append(f'<text x="{x0 - 44}" y="{y0 + h / 2}" text-anchor="middle" font-size="12" '
               f'transform="rotate(-90 {x0 - 44} {y0 + h / 2})">{label}</text>')
    out.append(f'<rect x="{x0}" y="{y0}" width="{w}" height="{h}" fill="none" stroke="#888"/>')
    return ymap


def growth(depths):
    fields = []
    for r in depths:
        key = (r["rules"], r["field"])
        if key not in fields:
            fields.append(key)
    vals = [int(r[c]) for r in depths for c in ("positions", "games") if int(r[c]) > 0]
    dmax = max(int(r["depth"]) for r in depths)
    lo, hi = 0, max(1, math.ceil(math.log10(max(vals))))
    x0, y0, w, h = 80, 50, 460, 320
    out = svg_open(x0 + w + 200, y0 + h + 60, "Game tree growth per depth", "results/depths.csv")
    ymap = log_axis(out, x0, y0, w, h, lo, hi, "count (log scale)")
    xmap = lambda d: x0 + d / max(1, dmax) * w
    for d in range(dmax + 1):
        out.append(f'<text x="{xmap(d):.1f}" y="{y0 + h + 16}" text-anchor="middle" font-size="11">{d}</text>')
    out.append(f'<text x="{x0 + w / 2}" y="{y0 + h + 36}" text-anchor="middle" font-size="12">depth (turns)</text>')
    for n, (rules, field) in enumerate(fields):
        col = SERIES[n % len(SERIES)]
        rs = [r for r in depths if (r["rules"], r["field"]) == (rules, field)]
        for c, dash in (("positions", ""), ("games", ' stroke-dasharray="6 4"')):
            pts = [(xmap(int(r["depth"])), ymap(int(r[c]))) for r in rs if int(r[c]) > 0]
            if pts:
                d = "M" + "L".join(f"{x:.1f} {y:.1f}" for x, y in pts)
                out.append(f'<path class="{c}" d="{d}" fill="none" stroke="{col}" stroke-width="2"{dash}/>')
                out += [f'<circle cx="{x:.1f}" cy="{y:.1f}" r="2.5" fill="{col}"/>' for x, y in pts]
        ly = y0 + 14 + n * 18
        legend_key(out, x0 + w + 14, ly, line_mark(x0 + w + 14, ly, col), f"{rules} {field}")
    lx, ly = x0 + w + 14, y0 + 24 + len(fields) * 18
    legend_key(out, lx, ly, line_mark(lx, ly, "#444"), "positions")
    legend_key(out, lx, ly + 18, line_mark(lx, ly + 18, "#444", ' stroke-dasharray="6 4"'), "turn sequences")
    write("enumeration-growth.svg", out)


def solve_time(rows):
    variants = []
    for r in rows:
        if r["rules"] not in variants:
            variants.append(r["rules"])
    pts = []
    for r in rows:
        g, w, l = field_gwl(r["field"])
        pts.append((r["rules"], w * l, max(float(r["seconds"]), 1e-3), r["status"] == "solved", r["field"]))
    amax = max(a for _, a, _, _, _ in pts)
    lo = math.floor(math.log10(min(s for _, _, s, _, _ in pts)))
    hi = math.ceil(math.log10(max(s for _, _, s, _, _ in pts)))
    x0, y0, w, h = 80, 50, 460, 320
    out = svg_open(x0 + w + 230, y0 + h + 60, "Solve time against field area", "results/solved.csv")
    ymap = log_axis(out, x0, y0, w, h, lo, hi, "seconds (log scale)")
    xmap = lambda a: x0 + a / (amax * 1.04) * w
    step = 10 if amax <= 100 else 20
    for a in range(0, int(amax) + 1, step):
        out.append(f'<text x="{xmap(a):.1f}" y="{y0 + h + 16}" text-anchor="middle" font-size="11">{a}</text>')
    out.append(f'<text x="{x0 + w / 2}" y="{y0 + h + 36}" text-anchor="middle" font-size="12">area W·L (cells)</text>')
    for n, v in enumerate(variants):
        col = SERIES[n % len(SERIES)]
        for rules, a, s, solved, field in pts:
            if rules != v:
                continue
            fill = col if solved else "#fff"
            out.append(f'<circle cx="{xmap(a):.1f}" cy="{ymap(s):.1f}" r="3.5" fill="{fill}" stroke="{col}" '
                       f'stroke-width="1.5"><title>{escape(rules)} {field}: {s} s</title></circle>')
        ly = y0 + 14 + n * 18
        legend_key(out, x0 + w + 14, ly, dot_mark(x0 + w + 14, ly, col, col), v)
    lx, ly = x0 + w + 14, y0 + 24 + len(variants) * 18
    legend_key(out, lx, ly, dot_mark(lx, ly, "#444", "#fff"), "stopped (time limit)")
    write("solve-time.svg", out)


def enumeration_map(rows):
    """Which fields' whole games are counted: one panel per rule set (hockey
    with dead ends drawn, per setback), width across, length down, each cell
    split into goal widths; green by the order of magnitude of the games."""
    panels = [("book", lambda r: r["rules"] == "book"),
              ("hockey S=0", lambda r: r["rules"] == "hockey" and r["setback"] == "0" and r["dead_end"] in ("draw", "")),
              ("hockey S=1", lambda r: r["rules"] == "hockey" and r["setback"] == "1" and r["dead_end"] in ("draw", "")),
              ("triple", lambda r: r["rules"] == "triple")]
    games = [int(r["games"]) for r in rows if r["status"] == "complete" and r["games"]]
    top = max(1, math.ceil(math.log10(max(games)))) if games else 1
    lo_rgb, hi_rgb = (0xd9, 0xf0, 0xd3), (0x1b, 0x5e, 0x20)

    def green(n):
        t = min(1.0, max(0.0, math.log10(max(1, n)) / top))
        return "#%02x%02x%02x" % tuple(round(a + (b - a) * t) for a, b in zip(lo_rgb, hi_rgb)), t
    u, ox, oy, gap = 52, 70, 96, 56
    size = 4
    pw = size * u
    width, height = ox + len(panels) * (pw + gap), oy + size * u + 120
    limit = next((r["status"].split()[1] for r in rows if r["status"].startswith("over ") and
                  r["status"].split()[1].isdigit()), "")
    title = "Whole games counted" + (f" in {limit} s per field" if limit else "")
    out = svg_open(width, height, title, "results/enumeration.csv")
    for n, (name, pick) in enumerate(panels):
        px = ox + n * (pw + gap)
        out.append(f'<text x="{px + pw / 2}" y="{oy - 40}" text-anchor="middle" font-size="13" '
                   f'font-weight="bold">{escape(name)}</text>')
        out.append(f'<text x="{px + pw / 2}" y="{oy - 22}" text-anchor="middle" font-size="11" fill="#444">width W</text>')
        cells = {}
        for r in rows:
            if pick(r):
                cells[(int(r["goal"]), int(r["width"]), int(r["length"]))] = r
        for gx, y, sw, gwl, r in grid_cells(size, size, u, px, oy, cells):
            g, w, l = gwl
            st = r["status"]
            if st == "complete":
                fill, t = green(int(r["games"]))
                label, tc = str(len(r["games"]) - 1), "#fff" if t > 0.55 else "#000"
                tip = f'complete: {r["games"]} games, {r["seconds"]} s'
            elif st.startswith("over --memory"):
                fill, label, tc, tip = "#d9c8e8", "M", "#000", st
            elif st.startswith("over"):
                fill, label, tc, tip = "#f8d9b0", "…", "#000", st
            else:
                fill, label, tc, tip = "#fff", "–", "#888", st
            out.append(f'<rect class="cell" x="{gx:.1f}" y="{y}" width="{sw:.1f}" height="{u}" fill="{fill}">'
                       f'<title>{escape(name)} ({g};{w};{l}) {escape(tip)}</title></rect>')
            out.append(f'<text x="{gx + sw / 2:.1f}" y="{y + u / 2 + 4}" text-anchor="middle" '
                       f'font-size="{10 if len(label) > 1 else 12}" fill="{tc}">{escape(label)}</text>')
        grid_frames(out, size, size, u, px, oy, 11)
    out.append(f'<text x="{ox - 44}" y="{oy + pw / 2}" text-anchor="middle" font-size="11" fill="#444" '
               f'transform="rotate(-90 {ox - 44} {oy + pw / 2})">length L</text>')
    ly = oy + pw + 32
    x = ox - 40
    for e in range(0, top + 1, max(1, top // 6)):
        fill, t = green(10 ** e)
        out.append(f'<rect x="{x}" y="{ly - 12}" width="24" height="16" fill="{fill}" stroke="#999"/>'
                   f'<text x="{x + 12}" y="{ly}" text-anchor="middle" font-size="10" fill="{"#fff" if t > 0.55 else "#000"}">{e}</text>')
        x += 28
    out.append(f'<text x="{x + 4}" y="{ly}" font-size="12">complete: n = the games are 10^n to 10^(n+1)</text>')
    x = ox - 40
    ly += 26
    for fill, label, text in (("#f8d9b0", "…", "over the time limit"), ("#d9c8e8", "M", "over the memory budget"),
                              ("#fff", "–", "not tried (the script's time budget)")):
        out.append(f'<rect x="{x}" y="{ly - 12}" width="16" height="16" fill="{fill}" stroke="#999"/>'
                   f'<text x="{x + 8}" y="{ly}" text-anchor="middle" font-size="11">{label}</text>'
                   f'<text x="{x + 22}" y="{ly}" font-size="12">{text}</text>')
        x += 60 + 7 * len(text)
    out.append(f'<text x="{ox - 40}" y="{ly + 26}" font-size="11" fill="#444">Each cell is split into goal widths '
               'G = 2, 4, ..., W (left to right); blank: not tried, as a field of the same goal, no wider and no '
               'longer, did not finish (or the rule set has no such field).</text>')
    write("enumeration-map.svg", out)


PROGRESS = re.compile(r"^solve: ([0-9.]+) s, (\d+) nodes, ([0-9.]+)M nodes/s, table ([0-9.]+)% full, .*"
                      r"root pn (\d+) dn (\d+)$")
QUESTION = re.compile(r"proof-number search on (.*?)(?: \(classes \d+/\d+ done\))?: can ")


def lin_axis(out, x0, y0, w, h, hi, step, label):
    """A linear y axis from 0 to hi, a grid line every step; returns the mapping."""
    def ymap(v):
        return y0 + h - v / hi * h
    v = 0
    while v <= hi + 1e-9:
        y = ymap(v)
        out.append(f'<path d="M{x0} {y:.1f}H{x0 + w}" stroke="#e4e4e4"/>')
        out.append(f'<text x="{x0 - 6}" y="{y + 4:.1f}" text-anchor="end" font-size="11">{v:g}</text>')
        v += step
    out.append(f'<text x="{x0 - 40}" y="{y0 + h / 2}" text-anchor="middle" font-size="12" '
               f'transform="rotate(-90 {x0 - 40} {y0 + h / 2})">{label}</text>')
    out.append(f'<rect x="{x0}" y="{y0}" width="{w}" height="{h}" fill="none" stroke="#888"/>')
    return ymap


def long_solve(path):
    """The root's numbers and the search's pace over a long solve, from the
    progress lines its results page quotes (one about every 150 s)."""
    text = open(path).read()
    matches = [m for m in (PROGRESS.match(line) for line in text.splitlines()) if m]
    pts = [tuple(float(g) for g in m.groups()) for m in matches]
    if len(pts) < 2:
        return
    # What each question was for (progress lines of proof-number search
    # name it: "the value", a first turn's route, "the line"), where named.
    labels = [QUESTION.search(m.group(0)) for m in matches]
    labels = [q.group(1) if q else "" for q in labels]
    title = re.search(r"^# (.*)$", text, re.M).group(1)
    cmd = re.search(r"^- command: `([^`]*)`", text, re.M)
    commit = re.search(r"^- commit: (\S+)", text, re.M)
    name = "long-solve-" + slug(os.path.basename(path)[len("long_solve_"):-len(".md")]) + ".svg"
    tmax = max(p[0] for p in pts)
    x0, w, h = 80, 520, 200
    ya, yb = 60, 60 + h + 70
    source = "results/" + os.path.basename(path)
    out = svg_open(x0 + w + 230, yb + h + 60, title, source)
    sub = (cmd.group(1) if cmd else "") + (f" (commit {commit.group(1)})" if commit else "")
    # One line if it fits (about 6 px a character at 11 px), else two,
    # broken at the space nearest the middle.
    lines = [sub]
    if len(sub) * 6 > x0 + w + 200:
        cut = min((i for i, ch in enumerate(sub) if ch == " "), key=lambda i: abs(i - len(sub) // 2), default=None)
        if cut is not None:
            lines = [sub[:cut], sub[cut + 1:]]
    for k, text in enumerate(lines):
        out.append(f'<text x="{x0 + w / 2 + 100}" y="{42 + 13 * k - 6 * (len(lines) - 1)}" text-anchor="middle" '
                   f'font-size="11" fill="#444">{escape(text)}</text>')
    step = 600 if tmax > 1800 else 60 if tmax <= 600 else 300
    xmap = lambda t: x0 + t / tmax * w
    for y0 in (ya, yb):
        t = 0
        while t <= tmax + 1e-9:
            out.append(f'<text x="{xmap(t):.1f}" y="{y0 + h + 16}" text-anchor="middle" font-size="11">{t:g}</text>')
            t += step
        out.append(f'<text x="{x0 + w / 2}" y="{y0 + h + 34}" text-anchor="middle" font-size="12">seconds</text>')
    nmax = max(max(p[4], p[5]) for p in pts)
    nstep = 10 if nmax <= 100 else 10 ** (len(str(int(nmax))) - 1)
    ymap = lin_axis(out, x0, ya, w, h, math.ceil(nmax * 1.1 / nstep) * nstep, nstep, "at the root")
    rmax = max(p[2] for p in pts)
    rmap = lin_axis(out, x0, yb, w, h, max(1.0, math.ceil(rmax * 5) / 5), 0.2, "million nodes a second")
    series = [("pn", 4, ymap, SERIES[0], "", "proof number"),
              ("dn", 5, ymap, SERIES[1], "", "disproof number"),
              ("pace", 2, rmap, SERIES[2], "", "main search (mean so far)"),
              ("full", 3, lambda v: yb + h - v / 100 * h, "#888", ' stroke-dasharray="6 4"',
               "table full (top: 100%)")]
    # Where the question changes (another first-turn class, the line), a
    # thin line across the numbers' panel, named by what the new one is for:
    # the root's numbers belong to one question at a time.
    if len(set(labels)) > 1:
        for k in range(len(pts)):
            if labels[k] and (k == 0 or labels[k] != labels[k - 1]):
                x = xmap(pts[k][0])
                out.append(f'<path class="question" d="M{x:.1f} {ya}L{x:.1f} {ya + h}" stroke="#bbb" '
                           f'stroke-width="1" stroke-dasharray="2 3"/>')
                out.append(f'<text x="{x + 3:.1f}" y="{ya + 10}" font-size="9" fill="#666">'
                           f'{escape(labels[k])}</text>')
    for n, (cls, i, m, col, dash, label) in enumerate(series):
        d = "M" + "L".join(f"{xmap(p[0]):.1f} {m(p[i]):.1f}" for p in pts)
        out.append(f'<path class="{cls}" d="{d}" fill="none" stroke="{col}" stroke-width="2"{dash}/>')
        ly = (ya if n < 2 else yb) + 14 + (n % 2) * 18
        legend_key(out, x0 + w + 14, ly, line_mark(x0 + w + 14, ly, col, dash), label)
    write(name, out, source)


def along_game(path):
    """The cost of solving one game's positions from its end back
    (scripts/along_game.sh): the nodes each position's solve searched
    against the turns played, log scale, coloured by the value for the
    player to move; a position not solved within the time limit is a
    hollow mark at the nodes it had searched when stopped."""
    text = open(path).read()
    rows, col = [], None
    for line in text.splitlines():
        c = [x.strip() for x in line.split("|")]
        if len(c) > 2 and c[1] == "turns" and "nodes" in c:
            col = c.index("nodes")  # the table's own header names its columns
        elif col and len(c) > col and c[1].isdigit():
            value = c[3].strip("*")
            rows.append((int(c[1]), max(int(c[col].replace(",", "")), 1), value if value in VALUE_COLOUR else None))
    if not rows:
        return
    title = re.search(r"^# (.*)$", text, re.M).group(1)
    base = os.path.basename(path)[len("along_game_"):-len(".md")]
    name = "along-game-nodes-" + slug(base) + ".svg"
    source = "results/" + os.path.basename(path)
    kmax = max(k for k, _, _ in rows)
    hi = max(1, math.ceil(math.log10(max(n for _, n, _ in rows))))
    x0, y0, w, h = 80, 50, 460, 300
    out = svg_open(x0 + w + 250, y0 + h + 60, title, source)
    ymap = log_axis(out, x0, y0, w, h, 0, hi, "nodes searched (log scale)")
    xmap = lambda k: x0 + (k + 0.5) / (kmax + 1) * w
    for k in range(0, kmax + 1, 1 if kmax <= 20 else 2 if kmax <= 40 else 5):
        out.append(f'<text x="{xmap(k):.1f}" y="{y0 + h + 16}" text-anchor="middle" font-size="11">{k}</text>')
    out.append(f'<text x="{x0 + w / 2}" y="{y0 + h + 36}" text-anchor="middle" font-size="12">'
               f'turns played before the position</text>')
    for k, nodes, value in rows:
        col = VALUE_COLOUR.get(value, "#444")
        fill = col if value else "#fff"
        out.append(f'<circle cx="{xmap(k):.1f}" cy="{ymap(nodes):.1f}" r="4.5" fill="{fill}" stroke="{col}" '
                   f'stroke-width="1.5"><title>after {k} turns: {value or "not solved"}, {nodes:,} nodes</title></circle>')
    lx = x0 + w + 14
    for n, (label, col, fill) in enumerate([("a win for the player to move", VALUE_COLOUR["win"], None),
                                             ("a loss for the player to move", VALUE_COLOUR["loss"], None),
                                             ("a draw", VALUE_COLOUR["draw"], None),
                                             ("not solved (time limit)", "#444", "#fff")]):
        ly = y0 + 14 + n * 18
        legend_key(out, lx, ly, dot_mark(lx, ly, col, fill or col), label)
    write(name, out, source)


def main():
    global ROOT, COMMIT, IMG
    ROOT, COMMIT = sys.argv[1], sys.argv[2]
    IMG = os.path.join(ROOT, "results", "img")
    os.makedirs(IMG, exist_ok=True)
    longs = long_solved(os.path.join(ROOT, "results"))
    solved_csv = os.path.join(ROOT, "results", "solved.csv")
    if os.path.exists(solved_csv):
        with open(solved_csv) as f:
            rows = list(csv.DictReader(f))
        solved_maps(rows, "solved", longs)
        solve_time(rows)
    values_csv = os.path.join(ROOT, "results", "values.csv")
    if os.path.exists(values_csv):
        with open(values_csv) as f:
            solved_maps(list(csv.DictReader(f)), "value", longs)
    enum_csv = os.path.join(ROOT, "results", "enumeration.csv")
    if os.path.exists(enum_csv):
        with open(enum_csv) as f:
            enumeration_map(list(csv.DictReader(f)))
    depths_csv = os.path.join(ROOT, "results", "depths.csv")
    if os.path.exists(depths_csv):
        with open(depths_csv) as f:
            growth(list(csv.DictReader(line for line in f if not line.startswith("#"))))
    results = os.path.join(ROOT, "results")
    for name in sorted(os.listdir(results)):
        if name.startswith("long_solve_") and name.endswith(".md"):
            long_solve(os.path.join(results, name))
        if name.startswith("along_game_") and name.endswith(".md"):
            along_game(os.path.join(results, name))


if __name__ == "__main__":
    main()
