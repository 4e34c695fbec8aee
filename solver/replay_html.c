/* replay_html.c - the game replayer page (see replay_html.h).
 *
 * The page is built in four pieces: the head (style), the board (the SVG
 * of the whole game with replay attributes: each drawn segment says its
 * turn and step, each node its name), the panel (buttons, status, value,
 * the record as a list whose items carry each turn's mover and nodes),
 * and the script, which reads those attributes and shows the game as it
 * stood at one stop.  Everything the script needs is in the DOM, so the
 * page has no data block to escape beyond ordinary HTML text. */
#include "replay_html.h"

#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diagram.h"
#include "strbuf.h"

static const char page_style[] =
    "body{font-family:'DejaVu Sans',Helvetica,Arial,sans-serif;margin:16px;color:#222;background:#fff}\n"
    "h1{font-size:20px;margin:0 0 8px}\n"
    "#main{display:flex;gap:24px;align-items:flex-start;flex-wrap:wrap}\n"
    "#panel{min-width:260px;max-width:360px}\n"
    "#controls button{font-size:15px;min-width:40px;margin:0 2px 6px 0;padding:4px 6px}\n"
    "#status{font-weight:bold;margin:6px 0}\n"
    "#value{margin:6px 0;color:#333;min-height:1.2em}\n"
    "#record{font-family:'DejaVu Sans Mono',monospace;font-size:13px;padding-left:2.6em;"
    "max-height:60vh;overflow:auto}\n"
    "#record li{padding:1px 4px;cursor:pointer;border-radius:3px}\n"
    "#record li.top{color:#1f5fbf}\n#record li.bottom{color:#d62728}\n"
    "#record li.cont{font-style:italic}\n"
    "#record li.current{background:#ffe98a;font-weight:bold}\n"
    ".help{font-size:12px;color:#555}\n"
    "svg .hidden{display:none}\n";

/* Stops: 0 is the start; then every step of every turn in order.  A stop
 * is (t, k): turn t under way with k of its steps taken (k >= 1). */
static const char page_script[] =
    "(function () {\n"
    "  'use strict';\n"
    "  var items = Array.prototype.slice.call(document.querySelectorAll('#record li'));\n"
    "  var turns = items.map(function (li) { return li.getAttribute('data-nodes').split(' '); });\n"
    "  var board = document.getElementById('board');\n"
    "  var stops = [{t: 0, k: 0}];\n"
    "  turns.forEach(function (nodes, t) {\n"
    "    for (var k = 1; k < nodes.length; k++) stops.push({t: t, k: k});\n"
    "  });\n"
    "  var drawn = Array.prototype.slice.call(board.querySelectorAll('svg [data-turn]'));\n"
    "  var ball = board.querySelector('svg .ball');\n"
    "  var ballEnd = board.querySelector('svg .ball-end');\n"
    "  if (ballEnd) ballEnd.classList.add('hidden');\n"
    "  var status = document.getElementById('status');\n"
    "  var value = document.getElementById('value');\n"
    "  var cur = 0;\n"
    "  function done(t, k) { return k > 0 && k === turns[t].length - 1; }\n"
    "  /* Turns finished at a stop: the note of that position, if any. */\n"
    "  function finished(s) { return s.k === 0 ? 0 : done(s.t, s.k) ? s.t + 1 : s.t; }\n"
    "  function moveBall(name) {\n"
    "    var n = document.getElementById('node-' + name);\n"
    "    if (!n || !ball) return;\n"
    "    ball.setAttribute('cx', n.getAttribute('cx'));\n"
    "    ball.setAttribute('cy', n.getAttribute('cy'));\n"
    "  }\n"
    "  function show(i) {\n"
    "    cur = Math.max(0, Math.min(stops.length - 1, i));\n"
    "    var s = stops[cur];\n"
    "    drawn.forEach(function (e) {\n"
    "      var t = +e.getAttribute('data-turn'), k = e.getAttribute('data-step');\n"
    "      var vis = s.k > 0 && (t < s.t || (t === s.t && (k === null ? done(s.t, s.k) : +k <= s.k)));\n"
    "      e.classList.toggle('hidden', !vis);\n"
    "    });\n"
    "    moveBall(turns.length ? turns[s.t][s.k] : board.getAttribute('data-ball'));\n"
    "    items.forEach(function (li, t) { li.classList.toggle('current', s.k > 0 && t === s.t); });\n"
    "    if (s.k > 0) items[s.t].scrollIntoView({block: 'nearest'});\n"
    "    status.setAttribute('data-stop', cur);\n"
    "    status.setAttribute('data-turn', s.k > 0 ? s.t + 1 : 0);\n"
    "    status.setAttribute('data-step', s.k);\n"
    "    status.textContent = s.k === 0 ? 'Start (' + stops.length + ' stops)' :\n"
    "      'Turn ' + (s.t + 1) + ' of ' + turns.length + ' (' + items[s.t].getAttribute('data-mover') +\n"
    "      '), step ' + s.k + ' of ' + (turns[s.t].length - 1);\n"
    "    var f = finished(s), note = f === 0 ? board.getAttribute('data-note')\n"
    "      : items[f - 1].getAttribute('data-note');\n"
    "    value.textContent = (s.k === 0 || done(s.t, s.k)) && note ? note : '';\n"
    "  }\n"
    "  /* The stop that ends turn t (t = -1: the start). */\n"
    "  function turnEnd(t) {\n"
    "    if (t < 0) return 0;\n"
    "    for (var i = 0; i < stops.length; i++) if (stops[i].t === t && done(t, stops[i].k)) return i;\n"
    "    return stops.length - 1;\n"
    "  }\n"
    "  function nextTurn() { var s = stops[cur]; show(turnEnd(s.k === 0 ? 0 : done(s.t, s.k) ? s.t + 1 : s.t)); }\n"
    "  function prevTurn() { var s = stops[cur]; show(turnEnd(s.k === 0 ? -1 : s.t - 1)); }\n"
    "  var act = {first: function () { show(0); }, prev: function () { show(cur - 1); },\n"
    "             next: function () { show(cur + 1); }, last: function () { show(stops.length - 1); },\n"
    "             'prev-turn': prevTurn, 'next-turn': nextTurn};\n"
    "  Object.keys(act).forEach(function (id) { document.getElementById(id).addEventListener('click', act[id]); });\n"
    "  items.forEach(function (li, t) { li.addEventListener('click', function () { show(turnEnd(t)); }); });\n"
    "  document.addEventListener('keydown', function (e) {\n"
    "    var k = e.key, f = null;\n"
    "    if (k === 'ArrowRight') f = e.shiftKey ? nextTurn : act.next;\n"
    "    else if (k === 'ArrowLeft') f = e.shiftKey ? prevTurn : act.prev;\n"
    "    else if (k === 'ArrowDown' || k === 'PageDown') f = nextTurn;\n"
    "    else if (k === 'ArrowUp' || k === 'PageUp') f = prevTurn;\n"
    "    else if (k === 'Home') f = act.first;\n"
    "    else if (k === 'End') f = act.last;\n"
    "    if (f) { e.preventDefault(); f(); }\n"
    "  });\n"
    "  show(0);\n"
    "})();\n";

static int first_cont(const pb_game *g, const pb_replay_opts *o) {
    if (o->highlight_from < 0 || o->highlight_from >= g->nturns) return g->nturns;
    return o->highlight_from;
}

/* What is known of the position after j turns: the result once the game
 * is over; on a line of perfect play that ends the game, the winner and
 * the turns left along it.  Empty when nothing is known. */
static void stop_note(const pb_game *g, const pb_replay_opts *o, int j, char *buf, size_t len) {
    buf[0] = 0;
    if (g->end == PB_END_NONE) return;
    int left = g->nturns - j;
    if (left == 0) {
        char r[128];
        snprintf(buf, len, "Game over: %s", pb_game_result(g, r, sizeof r));
    } else if (o->perfect && j >= first_cont(g, o)) {
        if (g->loser == PB_NOBODY)
            snprintf(buf, len, "Value with perfect play: draw (this line ends in %d turn%s)", left,
                     left == 1 ? "" : "s");
        else
            snprintf(buf, len, "Value with perfect play: %s wins (this line ends in %d turn%s)",
                     pb_player_name(g->loser ^ 1), left, left == 1 ? "" : "s");
    }
}

static void page_head(pb_strbuf *b, const char *title) {
    pb_strbuf_puts(b, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>");
    pb_strbuf_xml(b, title);
    pb_strbuf_printf(b, "</title>\n<style>\n%s</style>\n</head>\n<body>\n<h1>", page_style);
    pb_strbuf_xml(b, title);
    pb_strbuf_puts(b, "</h1>\n<div id=\"main\">\n");
}

/* The board: the diagram of the whole game, with the start's ball and
 * note for the script.  The XML declaration is dropped: inline SVG is an
 * element of the page, not a document. */
static void page_board(pb_strbuf *b, const pb_game *g, const pb_replay_opts *o) {
    /* The page's heading holds the title: the picture needs no second one. */
    pb_diagram_opts d = {.highlight_from = o->highlight_from, .replay = 1};
    char *svg = pb_diagram_svg(g, &d), name[8], note[256];
    const char *start = svg;
    if (!strncmp(start, "<?xml", 5)) start = strchr(start, '\n') + 1;
    stop_note(g, o, 0, note, sizeof note);
    pb_strbuf_printf(b, "<div id=\"board\" data-ball=\"%s\" data-note=\"",
                     pb_node_name(g->field, g->nturns ? g->turns[0].nodes[0] : g->pos.ball, name));
    pb_strbuf_xml(b, note);
    pb_strbuf_printf(b, "\">\n%s</div>\n", start);
    free(svg);
}

static void page_panel(pb_strbuf *b, const pb_game *g, const pb_replay_opts *o) {
    const pb_field *f = g->field;
    pb_strbuf_puts(b, "<div id=\"panel\">\n<div id=\"controls\">"
                      "<button id=\"first\" title=\"start (Home)\">|&#x25C0;</button>"
                      "<button id=\"prev-turn\" title=\"previous turn (Up)\">&#x25C0;&#x25C0;</button>"
                      "<button id=\"prev\" title=\"previous step (Left)\">&#x25C0;</button>"
                      "<button id=\"next\" title=\"next step (Right)\">&#x25B6;</button>"
                      "<button id=\"next-turn\" title=\"next turn (Down)\">&#x25B6;&#x25B6;</button>"
                      "<button id=\"last\" title=\"end (End)\">&#x25B6;|</button></div>\n"
                      "<div id=\"status\" data-stop=\"0\" data-turn=\"0\" data-step=\"0\">Start</div>\n"
                      "<div id=\"value\"></div>\n<ol id=\"record\">\n");
    int from = first_cont(g, o);
    int longest = 1;
    for (int t = 0; t < g->nturns; t++)
        if (g->turns[t].len > longest) longest = g->turns[t].len;
    size_t cap = 8 * (size_t)longest + 8; /* a node name and a dash each, and the kick's star */
    char *route = malloc(cap), name[8], note[256];
    assert(route);
    for (int t = 0; t < g->nturns; t++) {
        const pb_game_turn *gt = &g->turns[t];
        pb_strbuf_printf(b, "<li class=\"%s%s\" data-mover=\"%s\" data-nodes=\"",
                         gt->mover == PB_TOP ? "top" : "bottom", t >= from ? " cont" : "", pb_player_name(gt->mover));
        for (int k = 0; k < gt->len; k++)
            pb_strbuf_printf(b, "%s%s", k ? " " : "", pb_node_name(f, gt->nodes[k], name));
        stop_note(g, o, t + 1, note, sizeof note);
        pb_strbuf_puts(b, "\" data-note=\"");
        pb_strbuf_xml(b, note);
        pb_strbuf_puts(b, "\">");
        pb_strbuf_xml(b, pb_route_format(f, gt->nodes, gt->len, gt->kick, route, cap));
        pb_strbuf_puts(b, "</li>\n");
    }
    free(route);
    pb_strbuf_puts(b,
                   "</ol>\n<p class=\"help\">Keys: Right / Left one step, Down / Up (or Shift+Right / Left) one "
                   "turn, Home / End the start and the end.  Click a turn to jump to its end.</p>\n</div>\n</div>\n");
}

char *pb_replay_html(const pb_game *g, const pb_replay_opts *o) {
    assert(g && g->field);
    static const pb_replay_opts none = {.highlight_from = -1};
    if (!o) o = &none;
    char desc[128];
    const char *title = o->title ? o->title : pb_field_describe(g->field, desc, sizeof desc);
    pb_strbuf b = {0};
    page_head(&b, title);
    page_board(&b, g, o);
    page_panel(&b, g, o);
    pb_strbuf_printf(&b, "<script>\n%s</script>\n</body>\n</html>\n", page_script);
    return b.s;
}
