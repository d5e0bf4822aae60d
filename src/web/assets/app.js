// damelab's page: a pure view. The server says where the pieces are and which moves are legal;
// this script draws the board as SVG, turns clicks into one of the listed moves, and shows what
// the server answers. It knows no rules.
"use strict";

const $ = (id) => document.getElementById(id);
const SVGNS = "http://www.w3.org/2000/svg";
const S = 60; // a square, in SVG units

const CLIENT = (() => {
  let id = sessionStorage.getItem("damelab-client");
  if (!id) {
    const a = new Uint8Array(16);
    crypto.getRandomValues(a);
    id = Array.from(a, (b) => b.toString(16).padStart(2, "0")).join("");
    sessionStorage.setItem("damelab-client", id);
  }
  return id;
})();

let state = null;      // the server's last state
let sel = null;        // {from, clicked: [squares]} while choosing a move
let flipped = false;
let arrow = null;      // the analysis' best move, drawn as an arrow
let analysis = null;   // the open EventSource of an analysis
let engineBusy = false;
let edited = false;    // rules from the editor are in force

async function api(path, body) {
  const opts = { method: body === undefined ? "GET" : "POST", headers: { "X-Damelab-Client": CLIENT } };
  if (body !== undefined) {
    opts.headers["Content-Type"] = "application/json";
    opts.body = JSON.stringify(body);
  }
  const res = await fetch("/api/" + path, opts);
  let data;
  try { data = await res.json(); } catch (e) { data = { error: "the server sent no JSON (" + res.status + ")", help: "" }; }
  if (!res.ok) {
    const err = new Error(data.error || "request failed");
    err.help = data.help || "";
    err.status = res.status;
    throw err;
  }
  return data;
}

function say(text, help, where) {
  const el = where || $("message");
  el.textContent = "";
  if (!text) return;
  el.append(document.createTextNode(text));
  if (help) {
    const h = document.createElement("div");
    h.className = "help";
    h.textContent = "help: " + help;
    el.append(h);
  }
}

function fail(e, where) { say(e.message, e.help, where); }

// A state from the server: draw it.
function show(s, keepArrow) {
  if (state && state.variant.name !== s.variant.name) edited = false;
  const variantChanged = !state || state.variant.name !== s.variant.name || JSON.stringify(state.board) !== JSON.stringify(s.board);
  const moved = !state || state.tree.current !== s.tree.current || state.fen !== s.fen;
  state = s;
  sel = null;
  if (moved && !keepArrow) { arrow = null; stopAnalysis(); $("lines").textContent = ""; setEval(null); follow_(); }
  if (reviewed.length && reviewed.some((r) => r.node >= s.tree.nodes.length)) reviewed = [];
  if (variantChanged) setupControls();
  $("title").textContent = s.variant.title + (edited ? " (edited rules)" : "");
  // The hint in the board's own notation: one of the legal moves as the server writes it.
  if (s.legal.length) $("movein").placeholder = "type a move: " + s.legal[0].text;
  $("fen").value = s.fen;
  $("turn").value = String(s.turn);
  $("choices").textContent = "";
  drawBoard();
  drawMoves();
  if (reviewed.length) drawGraph();
  const here = s.tree.nodes[s.tree.current];
  if (document.activeElement !== $("note")) $("note").value = here.comment || "";
  for (const b of document.querySelectorAll("#nags button")) b.classList.toggle("on", (here.nags || []).includes(Number(b.dataset.nag)));
  let status = s.result;
  if (s.legal_error) status += " — " + s.legal_error;
  $("status").textContent = status;
  if (window.__firstBoard === undefined) window.__firstBoard = performance.now();
  maybeEngine();
}

// ---------------------------------------------------------------- board

function squareAt(sq) { return state.board.squares.find((q) => q.sq === sq); }

function xy(file, rank) {
  const b = state.board;
  const x = flipped ? b.width - 1 - file : file;
  const y = flipped ? rank : b.height - 1 - rank;
  return [x * S, y * S];
}

// A square's centre; on a hexagon or a board of points, where the server's layout (the one its
// diagrams use) places the point, scaled from its cells to this page's.
function centre(sq) {
  const q = squareAt(sq);
  const b = state.board;
  if (b.form && b.form !== "squares") {
    const k = S / b.cell;
    return flipped ? [q.fx * k, q.fy * k] : [q.x * k, q.y * k];
  }
  const [x, y] = xy(q.file, q.rank);
  return [x + S / 2, y + S / 2];
}

function el(name, attrs, parent) {
  const e = document.createElementNS(SVGNS, name);
  for (const k in attrs) e.setAttribute(k, attrs[k]);
  if (parent) parent.append(e);
  return e;
}

function luminance(hex) {
  const c = [1, 3, 5].map((i) => parseInt(hex.substr(i, 2), 16) / 255)
    .map((v) => (v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4)));
  return 0.2126 * c[0] + 0.7152 * c[1] + 0.0722 * c[2];
}

// Dark squares dark enough for light pieces and light text (5.9:1 against #fafaf5), light squares
// light enough for dark ones (10:1 against #262626); every piece has a ring of the other shade.
const DARK = "#7d5a3c", LIGHT = "#e8d5b0", ALL_DARK = "#7d5a3c", ALL_LIGHT = "#e8d5b0";
const HEX_SHADES = ["#e8d5b0", "#c9a57a", "#7d5a3c"], FRAME = "#4a3520";

// A hexagon's cells, or a board's lines and points, each where centre() places it; every cell
// and point carries its square for clicks, and its name.
function drawCells(svg) {
  const b = state.board;
  const k = S / b.cell;
  if (b.form === "points") {
    el("rect", { x: 0, y: 0, width: b.view[0] * k, height: b.view[1] * k, fill: LIGHT }, svg);
    for (const [p, q] of b.lines) {
      const [x1, y1] = centre(p), [x2, y2] = centre(q);
      el("line", { x1, y1, x2, y2, stroke: FRAME, "stroke-width": 2.5, class: "line", "pointer-events": "none" }, svg);
    }
  }
  for (const q of b.squares) {
    const [cx, cy] = centre(q.sq);
    let shape, textFill = "#3a2a1a";
    if (b.form === "hexagon") {
      const r = b.hex_r * k;
      const points = [0, 1, 2, 3, 4, 5].map((i) => {
        const a = Math.PI / 3 * i;
        return (cx + r * Math.cos(a)).toFixed(1) + "," + (cy + r * Math.sin(a)).toFixed(1);
      }).join(" ");
      // Three shades, so that no two neighbouring cells look alike.
      const shade = (q.file + q.rank) % 3;
      if (shade === 2) textFill = "#f4ead8";
      shape = el("polygon", { points, fill: HEX_SHADES[shade], stroke: FRAME, "stroke-width": 1, class: "cell" }, svg);
    } else {
      el("circle", { cx, cy, r: 5, fill: FRAME, class: "point", "pointer-events": "none" }, svg);
      // The clickable area: a transparent disc round the point.
      shape = el("circle", { cx, cy, r: S * 0.45, fill: "transparent" }, svg);
    }
    shape.setAttribute("data-sq", q.sq);
    shape.setAttribute("data-name", q.name);
    shape.setAttribute("data-alg", q.alg);
    shape.classList.add("sq");
    const t = el("text", { x: cx, y: cy - S * 0.28, "font-size": 10, "text-anchor": "middle", fill: textFill, class: "coord", "pointer-events": "none" }, svg);
    t.textContent = q.name;
  }
}

function drawBoard() {
  const b = state.board;
  const cells = b.form && b.form !== "squares";
  const [vw, vh] = cells ? [b.view[0] * S / b.cell, b.view[1] * S / b.cell] : [b.width * S, b.height * S];
  const svg = el("svg", { viewBox: `0 0 ${vw} ${vh}`, role: "img", "aria-label": "board", id: "board-svg" });
  el("defs", {}, svg).innerHTML =
    '<marker id="head" viewBox="0 0 10 10" refX="5" refY="5" markerWidth="3.2" markerHeight="3.2" orient="auto-start-reverse">' +
    '<path d="M0,0 L10,5 L0,10 z" fill="#1d5fbf"/></marker>';
  const playable = new Map();
  for (const q of b.squares) playable.set(q.file + "," + q.rank, q);
  const last = state.last;
  const lastSquares = new Set(last ? [last.from, ...last.route] : []);
  const lastCaptured = new Set(last ? last.captured : []);
  const targets = selectionTargets();
  if (cells) drawCells(svg);
  for (let r = 0; r < (cells ? 0 : b.height); r++) {
    for (let f = 0; f < b.width; f++) {
      const q = playable.get(f + "," + r);
      const darkA1 = !b.a1_light;
      const dark = ((f + r) % 2 === 0) === darkA1;
      const fill = b.all ? (dark ? ALL_DARK : ALL_LIGHT) : (q ? DARK : LIGHT);
      const [x, y] = xy(f, r);
      const rect = el("rect", { x, y, width: S, height: S, fill }, svg);
      if (q) {
        rect.setAttribute("data-sq", q.sq);
        rect.setAttribute("data-name", q.name);
        rect.setAttribute("data-alg", q.alg);
        rect.classList.add("sq");
      }
      const textFill = fill === DARK ? "#f4ead8" : "#3a2a1a";
      if (q && b.numbered) {
        const t = el("text", { x: x + 2, y: y + 11, "font-size": 11, fill: textFill, class: "coord", "pointer-events": "none" }, svg);
        t.textContent = q.name;
      }
      if (!b.numbered) {
        const edgeFile = flipped ? b.width - 1 : 0, edgeRank = flipped ? b.height - 1 : 0;
        if (f === edgeFile) {
          const t = el("text", { x: x + 3, y: y + 13, "font-size": 12, fill: textFill, class: "coord", "pointer-events": "none" }, svg);
          t.textContent = String(r + 1);
        }
        if (r === edgeRank) {
          const t = el("text", { x: x + S - 11, y: y + S - 4, "font-size": 12, fill: textFill, class: "coord", "pointer-events": "none" }, svg);
          t.textContent = String.fromCharCode(97 + f);
        }
      }
    }
  }
  // The last move's squares, the selection, the destinations.
  for (const sq of lastSquares) mark(svg, sq, "rgba(245, 213, 71, 0.55)");
  if (sel) mark(svg, sel.from, "rgba(80, 200, 120, 0.6)");
  for (const sq of (sel ? sel.clicked : [])) mark(svg, sq, "rgba(80, 200, 120, 0.45)");
  for (const p of state.pieces) drawPiece(svg, p);
  // A captured piece crossed out; where a piece still stands (a column gave up its top), a
  // small cross in the square's corner, clear of the column.
  const standing = new Set(state.pieces.map((p) => p.sq));
  for (const sq of lastCaptured) {
    const [x0, y0] = centre(sq);
    const on = standing.has(sq);
    const [cx, cy] = on ? [x0 - S * 0.36, y0 - S * 0.36] : [x0, y0];
    const d = S * (on ? 0.08 : 0.18);
    const cross = el("path", { d: `M${cx - d},${cy - d} L${cx + d},${cy + d} M${cx + d},${cy - d} L${cx - d},${cy + d}`, stroke: "#e0202a", "stroke-width": on ? 4 : 5, "stroke-linecap": "round", class: "captured", "pointer-events": "none" }, svg);
    if (on) cross.classList.add("top-taken");
  }
  for (const [sq, kind] of targets) {
    const [cx, cy] = centre(sq);
    el("circle", { cx, cy, r: kind === "end" ? S * 0.16 : S * 0.1, fill: kind === "end" ? "rgba(20, 120, 60, 0.85)" : "rgba(20, 120, 60, 0.5)", stroke: "#fff", "stroke-width": 2, class: "target", "data-target": sq, "pointer-events": "none" }, svg);
  }
  drawHandExtras(svg); // hand.js: drops, the hands, a single combat
  if (arrow) drawArrow(svg, arrow);
  drawShapes(svg);
  svg.addEventListener("pointerdown", onPointerDown);
  svg.addEventListener("pointerup", onPointerUp);
  svg.addEventListener("contextmenu", (ev) => ev.preventDefault());
  $("board").replaceChildren(svg);
}

function mark(svg, sq, colour) {
  const q = squareAt(sq);
  if (!q) return;
  if (state.board.form && state.board.form !== "squares") {
    const [cx, cy] = centre(sq);
    el("circle", { cx, cy, r: S * 0.46, fill: colour, "pointer-events": "none" }, svg);
    return;
  }
  const [x, y] = xy(q.file, q.rank);
  el("rect", { x, y, width: S, height: S, fill: colour, "pointer-events": "none" }, svg);
}

function drawPiece(svg, p) {
  const side = state.board.sides[p.side];
  const [cx, cy] = centre(p.sq);
  const light = luminance(side.colour) > 0.3;
  const ring = light ? "#262626" : "#fafaf5";
  const g = el("g", { class: "piece", "data-sq": p.sq, "data-side": p.side, "data-kind": p.kind, "pointer-events": "none" }, svg);
  // A column (`take top`): the pieces under the top as discs showing below it, the bottom one
  // lowest, and the column's height beside it.
  const under = p.under || [];
  for (let i = under.length - 1; i >= 0; i--) {
    const u = state.board.sides[under[i][0]];
    const uring = luminance(u.colour) > 0.3 ? "#262626" : "#fafaf5";
    const dy = Math.min(6, 24 / under.length) * (i + 1);
    el("circle", { cx, cy: cy + dy, r: S * 0.37, fill: u.colour, stroke: uring, "stroke-width": 2, class: "under", "data-side": under[i][0], "data-kind": under[i][1] }, g);
  }
  el("circle", { cx, cy, r: S * 0.37, fill: side.colour, stroke: ring, "stroke-width": 3 }, g);
  el("circle", { cx, cy, r: S * 0.26, fill: "none", stroke: ring, "stroke-width": 1.5, opacity: 0.6 }, g);
  if (p.kind > 0) {
    const t = el("text", { x: cx, y: cy + 8, "text-anchor": "middle", "font-size": 24, "font-weight": "bold", fill: ring }, g);
    t.textContent = state.board.kinds[p.kind].letter;
  }
  if (under.length > 0) {
    g.setAttribute("data-height", under.length + 1);
    const h = el("text", { x: cx + S * 0.3, y: cy - S * 0.22, "text-anchor": "middle", "font-size": 16, "font-weight": "bold", fill: ring, class: "height" }, g);
    h.textContent = String(under.length + 1);
  }
}

// The shapes drawn after the current move (`[%draw …]` in its comment), and the one being drawn.
const SHAPE_COLOURS = { green: "#15781b", red: "#882020", blue: "#003088", yellow: "#e68f00" };
function sqNamed(name) { const q = state.board.squares.find((x) => x.name === name); return q ? q.sq : null; }
function currentShapes() { return state.tree.nodes[state.tree.current].shapes || []; }
function drawShapes(svg) {
  const defs = svg.querySelector("defs");
  for (const [name, colour] of Object.entries(SHAPE_COLOURS)) {
    defs.insertAdjacentHTML("beforeend", `<marker id="head-${name}" viewBox="0 0 10 10" refX="5" refY="5" markerWidth="3" markerHeight="3" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" fill="${colour}"/></marker>`);
  }
  for (const sh of currentShapes()) {
    const a = sqNamed(sh.from), b = sh.to ? sqNamed(sh.to) : null;
    if (a === null) continue;
    const colour = SHAPE_COLOURS[sh.colour] || SHAPE_COLOURS.green;
    const [x1, y1] = centre(a);
    if (b === null) {
      el("circle", { cx: x1, cy: y1, r: S * 0.45, fill: "none", stroke: colour, "stroke-width": 5, opacity: 0.85, class: "shape circle", "pointer-events": "none" }, svg);
    } else {
      const [x2, y2] = centre(b);
      el("path", { d: `M${x1},${y1} L${x2},${y2}`, stroke: colour, "stroke-width": 10, "stroke-linecap": "round", opacity: 0.75, "marker-end": `url(#head-${sh.colour})`, class: "shape arrow-shape", "pointer-events": "none" }, svg);
    }
  }
}

// A right-drag draws an arrow, a right-click a circle (shift: red, alt: blue, ctrl: yellow);
// drawing the same shape again takes it away. The shapes go into the move's comment.
let drawFrom = null;
function shapeColour(ev) { return ev.shiftKey ? "red" : ev.altKey ? "blue" : ev.ctrlKey ? "yellow" : "green"; }
async function drawShape(fromSq, toSq, colour) {
  const from = squareAt(fromSq).name, to = toSq === fromSq ? null : squareAt(toSq).name;
  const shapes = currentShapes().filter((x) => !(x.from === from && (x.to || null) === to));
  if (shapes.length === currentShapes().length) shapes.push({ from, to, colour });
  try { show(await api("annotate", { node: state.tree.current, shapes }), true); } catch (e) { fail(e); }
}

function drawArrow(svg, mv) {
  const pts = [mv.from, ...mv.route].map(centre);
  const d = pts.map((p, i) => (i ? "L" : "M") + p[0] + "," + p[1]).join(" ");
  el("path", { d, fill: "none", stroke: "#1d5fbf", "stroke-width": 9, "stroke-linecap": "round", "stroke-linejoin": "round", opacity: 0.8, "marker-end": "url(#head)", class: "arrow", "pointer-events": "none" }, svg);
}

// ------------------------------------------------------------- choosing a move

function movesFrom(from) { return state.legal.map((m, i) => ({ m, i })).filter((x) => x.m.from === from); }

// The legal moves the selection still allows: every clicked square on the move's route.
function matching() {
  if (!sel) return [];
  return movesFrom(sel.from).filter((x) => sel.clicked.every((sq) => x.m.route.includes(sq)));
}

// Squares to highlight: the ends of the matching moves; when several routes end on a clicked
// square, the landing squares that tell them apart.
function selectionTargets() {
  const out = new Map();
  if (!sel) return out;
  const ms = matching();
  for (const x of ms) if (!sel.clicked.includes(x.m.to)) out.set(x.m.to, "end");
  // The routes ending on a clicked square (the landing clicked first, or a square passed through
  // after it): their marks stay until one route is left.
  const ending = ms.filter((x) => sel.clicked.includes(x.m.to));
  if (ending.length > 1) {
    for (const x of ending) for (const sq of x.m.route) if (!sel.clicked.includes(sq)) {
      if (!ending.every((y) => y.m.route.includes(sq))) out.set(sq, "via");
    }
  }
  return out;
}

function pieceAt(sq) { return state.pieces.find((p) => p.sq === sq); }

let downSq = null;

function sqOf(ev) {
  const t = document.elementFromPoint(ev.clientX, ev.clientY);
  if (t && t.getAttribute && t.getAttribute("data-target") !== null) return Number(t.getAttribute("data-target"));
  if (t && t.getAttribute && t.getAttribute("data-sq") !== null) return Number(t.getAttribute("data-sq"));
  return null;
}

function onPointerDown(ev) {
  const sq = sqOf(ev);
  if (ev.button === 2) { drawFrom = sq; ev.preventDefault(); return; }
  downSq = sq;
  if (sq === null) return;
  ev.preventDefault();
  clickSquare(sq);
}

function onPointerUp(ev) {
  const sq = sqOf(ev);
  if (ev.button === 2) {
    if (drawFrom !== null && sq !== null) drawShape(drawFrom, sq, shapeColour(ev));
    drawFrom = null;
    return;
  }
  // A drag: released on another square than it started on.
  if (sq !== null && downSq !== null && sq !== downSq && sel && sel.from === downSq) clickSquare(sq);
  downSq = null;
}

async function clickSquare(sq) {
  if ($("edit").checked) return editSquare(sq);
  if (engineBusy) return;
  if (placing()) return dropClick(sq); // hand.js
  const p = pieceAt(sq);
  if (!sel || (p && p.side === state.turn && sq !== sel.from && !matching().some((x) => x.m.route.includes(sq)))) {
    if (p && p.side === state.turn) {
      sel = { from: sq, clicked: [] };
      // A piece with no legal move is selected all the same: the square clicked next is
      // explained ("a capture is available: …").
      say(movesFrom(sq).length === 0 ? "this piece has no legal move: click where it should go to see why" : "");
      drawBoard();
    } else if (p) {
      say("it is " + state.board.sides[state.turn].name + "'s move");
    }
    return;
  }
  if (sq === sel.from) { sel = null; drawBoard(); return; }
  const clicked = sel.clicked.concat([sq]);
  const ms = movesFrom(sel.from).filter((x) => clicked.every((c) => x.m.route.includes(c)));
  if (ms.length === 0) {
    const from = squareAt(sel.from).name, to = squareAt(sq).name;
    sel = null;
    drawBoard();
    explainRefusal(from, to);
    return;
  }
  sel.clicked = clicked;
  const done = ms.filter((x) => clicked.includes(x.m.to));
  if (ms.length === 1 && done.length === 1) return playIndex(ms[0].i);
  if (done.length > 1 && done.every((x) => sameSet(x.m.route, done[0].m.route))) {
    // Routes the squares cannot tell apart (the same landings, other pieces taken): a list.
    offerChoices(done);
  } else if (done.length > 1) {
    say("several routes end there: click the square to pass through");
  }
  drawBoard();
}

function sameSet(a, b) { return a.length === b.length && a.every((x) => b.includes(x)); }

function offerChoices(list) {
  if (offerDeclaration(list)) return; // hand.js: move, or declare a single combat
  const box = $("choices");
  box.textContent = "choose: ";
  for (const x of list) {
    const b = document.createElement("button");
    b.textContent = x.m.text;
    b.onclick = () => playIndex(x.i);
    box.append(b);
  }
}

async function playIndex(i) {
  try {
    show(await api("play", { node: state.tree.current, index: i }));
    say("");
  } catch (e) { fail(e); drawBoard(); }
}

async function playMoves(moves) {
  try { show(await api("play", { moves })); say(""); } catch (e) { fail(e); }
}

async function explainRefusal(from, to) {
  const text = to === null ? from + "-" + from : from + "-" + to;
  try {
    const r = await api("explain", { text });
    say(r.text);
  } catch (e) {
    say(to === null ? "the piece on " + from + " has no legal move" : e.message, e.help);
  }
}

// ------------------------------------------------------------------- move list

// NAGs as players write them: `!`, `?`, `!!`, `??`, `!?`, `?!`, else `$n`.
const MARKS = ["", "!", "?", "!!", "??", "!?", "?!"];
function nagText(nags) { return (nags || []).map((g) => MARKS[g] || " $" + g).join(""); }

function drawMoves() {
  const box = $("moves");
  box.textContent = "";
  const root = state.tree.nodes[0];
  if (root.comment) {
    const c = document.createElement("span");
    c.className = "comment";
    c.textContent = root.comment;
    box.append(c, " ");
  }
  const nodes = state.tree.nodes;
  const onPath = new Set(state.tree.path);
  const word = (id, forceNumber) => {
    const n = nodes[id];
    const s = document.createElement("span");
    s.className = "mv" + (id === state.tree.current ? " current" : "") + (onPath.has(id) ? " onpath" : "");
    s.dataset.node = id;
    s.textContent = (n.white ? n.num + ". " : forceNumber ? n.num + "... " : "") + n.text + nagText(n.nags);
    s.onclick = () => api("goto", { node: id }).then((st) => show(st)).catch(fail);
    const frag = document.createDocumentFragment();
    frag.append(s);
    for (const [cls, text] of [["clock", n.clock], ["evalc", n.eval], ["comment", n.comment]]) {
      if (!text) continue;
      const c = document.createElement("span");
      c.className = cls;
      c.textContent = cls === "clock" ? "⏱ " + text : cls === "evalc" ? "[" + text + "]" : text;
      frag.append(" ", c);
    }
    return frag;
  };
  const line = (node, force, parent) => {
    for (;;) {
      const kids = nodes[node].children;
      if (!kids.length) return;
      parent.append(word(kids[0], force), " ");
      for (const v of kids.slice(1)) {
        const span = document.createElement("span");
        span.className = "variation";
        span.append("(", word(v, true), " ");
        line(v, false, span);
        span.append(")");
        parent.append(span, " ");
      }
      force = kids.length > 1;
      node = kids[0];
    }
  };
  line(0, true, box);
  const cur = box.querySelector(".current");
  if (cur) cur.scrollIntoView({ block: "nearest" });
}

// --------------------------------------------------------------------- engine

// The bar: the first side's share, and its score in few characters (a won game as `W12`,
// a lost one as `L12`: a win in 12 plies), readable at every score.
function setEval(v, score) {
  const fill = $("evalfill");
  if (v === null) { fill.style.height = "50%"; $("evaltext").textContent = ""; return; }
  const share = 1 / (1 + Math.exp(-v * 0.7));
  fill.style.height = (share * 100).toFixed(1) + "%";
  const m = /^(win|loss) in (\d+)/.exec(score || "");
  const short = m ? (m[1] === "win" ? "W" : "L") + m[2] : (v > 0 ? "+" : "") + (Math.abs(v) >= 10 ? v.toFixed(0) : v.toFixed(1));
  $("evaltext").textContent = short;
  $("evalbar").title = "evaluation (first side's view): " + (score || short);
}

function stopAnalysis() {
  if (analysis) { analysis.close(); analysis = null; }
}

// Analysis follows the game: once started, each new position is analysed in turn until `stop`.
let following = false;
let followTimer = null;
function follow_() {
  clearTimeout(followTimer);
  if (following && !state.over) followTimer = setTimeout(analyse, 120);
}

function fmtNodes(n) { return n >= 1e6 ? (n / 1e6).toFixed(1) + "M" : n >= 1e3 ? (n / 1e3).toFixed(0) + "k" : String(n); }

async function analyse() {
  stopAnalysis();
  following = true;
  $("lines").textContent = "";
  try {
    const engine = $("engine-choice").value || "damelab";
    const r = await api("analyse", { seconds: Number($("secs").value), lines: Number($("multipv").value), engine });
    const es = new EventSource(r.stream);
    analysis = es;
    const node = state.tree.current;
    es.addEventListener("info", (ev) => {
      const i = JSON.parse(ev.data);
      if (state.tree.current !== node) return;
      arrow = i.pv[0] || null;
      setEval(Math.abs(i.eval) > 200 ? Math.sign(i.eval) * 50 : i.eval, i.score);
      const box = $("lines");
      box.textContent = "";
      const stats = document.createElement("div");
      stats.className = "stats";
      stats.textContent = (i.engine ? i.engine + ": " : "") + `depth ${i.depth} · ${fmtNodes(i.nodes)} nodes · ${fmtNodes(i.nps || 0)}/s · ${(i.ms / 1000).toFixed(1)} s`;
      box.append(stats);
      for (const l of (i.lines || [i])) {
        const div = document.createElement("div");
        div.className = "line";
        const sc = document.createElement("b");
        sc.textContent = l.score + " ";
        div.append(sc);
        l.pv.forEach((m, k) => {
          const s = document.createElement("span");
          s.className = "pvmove";
          s.textContent = m.text;
          s.onclick = () => playMoves(l.pv.slice(0, k + 1).map((x) => x.text));
          div.append(s, " ");
        });
        box.append(div);
      }
      drawBoard();
    });
    es.addEventListener("done", (ev) => {
      const d = JSON.parse(ev.data);
      const div = document.createElement("div");
      div.className = "line done";
      div.textContent = d.best ? (d.engine ? d.engine + ": " : "") + `best ${d.best.text}  ${d.score}  depth ${d.depth}${d.stopped ? "  (stopped)" : ""}` : (d.error || "no move");
      if (d.error) { div.classList.add("engine-error"); following = false; }
      $("lines").prepend(div);
      es.close();
      if (analysis === es) analysis = null;
    });
    es.onerror = () => { es.close(); if (analysis === es) analysis = null; };
  } catch (e) { fail(e); }
}

async function engineMove() {
  if (engineBusy) return;
  engineBusy = true;
  $("status").textContent = "the engine is thinking…";
  try { show(await api("engine/move", { seconds: Number($("move-secs").value) })); }
  catch (e) { fail(e); }
  finally { engineBusy = false; }
}

function maybeEngine() {
  const side = $("engine-side").value;
  if (side !== "" && !state.over && Number(side) === state.turn && !engineBusy) setTimeout(engineMove, 50);
}

// ---------------------------------------------------------------------- rules

let checkTimer = null;

let errorLines = new Set();

function gutter() {
  const n = $("rules").value.split("\n").length;
  const g = $("gutter");
  g.textContent = "";
  for (let i = 1; i <= n; i++) {
    const s = document.createElement("span");
    s.textContent = (errorLines.has(i) ? "✗ " : "") + i + "\n";
    if (errorLines.has(i)) s.className = "err";
    g.append(s);
  }
  g.scrollTop = $("rules").scrollTop;
}

async function checkRules() {
  const text = $("rules").value;
  try {
    const r = await api("rules/check", { text });
    if ($("rules").value !== text) return;
    showDiagnostics(text, r);
  } catch (e) { fail(e, $("diagnostics")); }
}

// Each diagnostic under the line it points at: the line, a mark under the span, the message,
// the help.
function showDiagnostics(text, r) {
  const box = $("diagnostics");
  box.textContent = "";
  box.className = r.ok ? "ok" : "bad";
  errorLines = new Set(r.ok ? [] : r.diagnostics.map((d) => d.line));
  gutter();
  if (r.ok) { box.textContent = "no errors"; return; }
  const lines = text.split("\n");
  for (const d of r.diagnostics) {
    const div = document.createElement("div");
    div.className = "diag";
    div.dataset.line = d.line;
    const src = document.createElement("pre");
    const lineText = lines[d.line - 1] || "";
    const width = d.end_line === d.line ? Math.max(1, d.end_col - d.col) : Math.max(1, lineText.length - d.col + 1);
    src.textContent = String(d.line).padStart(4) + " │ " + lineText + "\n" + " ".repeat(4) + " │ " +
      " ".repeat(d.col - 1) + "─".repeat(width) + " " + (d.label || "");
    const msg = document.createElement("div");
    msg.className = "msg";
    msg.textContent = "× " + d.message;
    div.append(msg, src);
    if (d.help) {
      const h = document.createElement("div");
      h.className = "help";
      h.textContent = "help: " + d.help;
      div.append(h);
    }
    div.onclick = () => {
      const ta = $("rules");
      ta.focus();
      ta.setSelectionRange(d.start, d.start + d.len);
    };
    box.append(div);
  }
}

async function loadRules() {
  try {
    const r = await api("rules");
    $("rules").value = r.text;
    $("save-path").value = r.path || "";
    $("description").textContent = "";
    gutter();
    checkRules();
  } catch (e) { fail(e, $("rules-msg")); }
}

// ---------------------------------------------------------------------- set-up

function setupControls() {
  const b = state.board;
  const pal = $("palette");
  pal.textContent = "";
  const opts = [["empty", null]];
  b.sides.forEach((s, si) => b.kinds.forEach((k, ki) => opts.push([s.name + " " + k.name, [si, ki]])));
  opts.forEach(([label, piece], i) => {
    const l = document.createElement("label");
    const r = document.createElement("input");
    r.type = "radio";
    r.name = "piece";
    r.value = JSON.stringify(piece);
    if (i === 1) r.checked = true;
    l.append(r, " " + label + " ");
    pal.append(l);
  });
  const turn = $("turn"), es = $("engine-side");
  turn.textContent = "";
  es.length = 1;
  b.sides.forEach((s, i) => {
    turn.append(new Option(s.name, String(i)));
    es.append(new Option(s.name, String(i)));
  });
}

async function editSquare(sq) {
  const checked = document.querySelector('input[name="piece"]:checked');
  let piece = checked ? JSON.parse(checked.value) : null;
  const here = pieceAt(sq);
  // Clicking a square that already holds the chosen piece empties it.
  if (here && piece && here.side === piece[0] && here.kind === piece[1]) piece = null;
  try { show(await api("setup", { sq, piece })); } catch (e) { fail(e); }
}

// ------------------------------------------------------------------------ study

// A study's stream: `progress` moves the bar, `done` or `failed` ends it with its text (and,
// for self-play, its chart).
function follow(r, label) {
  $("study-text").textContent = "";
  $("study-chart").removeAttribute("src");
  $("study-progress").value = 0;
  $("study-status").textContent = label;
  const es = new EventSource(r.stream);
  es.addEventListener("progress", (ev) => {
    const p = JSON.parse(ev.data);
    $("study-progress").max = Math.max(p.total, 1);
    $("study-progress").value = p.done;
    $("study-status").textContent = p.material
      ? `${label}: table ${p.table} of ${p.tables} (${p.material}), ${Math.floor(100 * p.done / Math.max(p.total, 1))}%`
      : `${label}: ${p.done} of ${p.total} games`;
  });
  const end = (ev) => {
    const d = JSON.parse(ev.data);
    $("study-text").textContent = d.error ? d.error : d.text || "stopped before the first game ended";
    if (d.svg) $("study-chart").src = "data:image/svg+xml;charset=utf-8," + encodeURIComponent(d.svg);
    if (!d.error && !d.stopped) $("study-progress").value = $("study-progress").max;
    $("study-status").textContent = `${label}: ` + (d.error ? "failed" : d.stopped ? "stopped" : "done");
    es.close();
  };
  es.addEventListener("done", end);
  es.addEventListener("failed", end);
  es.onerror = () => es.close();
}

function study() {
  api("study", { games: Number($("games").value), depth: Number($("study-depth").value) })
    .then((r) => follow(r, "self-play")).catch((e) => fail(e, $("study-text")));
}

function endgame() {
  api("endgame", { material: $("material").value })
    .then((r) => follow(r, `${r.material} (${r.tables} tables, ${r.positions} positions)`))
    .catch((e) => fail(e, $("study-text")));
}

// ------------------------------------------------------------------------ wiring

function download(name, text) {
  const a = document.createElement("a");
  a.href = URL.createObjectURL(new Blob([text], { type: "text/plain" }));
  a.download = name;
  a.click();
  setTimeout(() => URL.revokeObjectURL(a.href), 1000);
}

function wire() {
  $("flip").onclick = () => { flipped = !flipped; drawBoard(); };
  $("undo").onclick = () => api("undo", {}).then((s) => show(s)).catch(fail);
  $("redo").onclick = () => api("redo", {}).then((s) => show(s)).catch(fail);
  $("new").onclick = () => api("new", {}).then((s) => show(s)).catch(fail);
  $("movein").addEventListener("keydown", (ev) => {
    if (ev.key !== "Enter") return;
    const t = ev.target.value.trim();
    if (!t) return;
    api("play", { moves: [t] }).then((s) => { show(s); ev.target.value = ""; say(""); }).catch(fail);
  });
  document.addEventListener("keydown", (ev) => {
    if (ev.target.matches("input, textarea, select")) return;
    if (ev.key === "ArrowLeft") $("undo").click();
    else if (ev.key === "ArrowRight") $("redo").click();
    else if (ev.key === "f") $("flip").click();
    else if (/^[0-9a-p]$/.test(ev.key)) { $("movein").focus(); }
  });
  $("analyse").onclick = analyse;
  $("stop").onclick = () => { following = false; clearTimeout(followTimer); api("stop", {}).catch(fail); };
  $("engine-move").onclick = engineMove;
  $("engine-side").onchange = maybeEngine;
  $("probe").onclick = () => api("probe", {}).then((r) => say(r.text)).catch(fail);
  $("rules").addEventListener("input", () => {
    gutter();
    clearTimeout(checkTimer);
    checkTimer = setTimeout(checkRules, 300);
  });
  $("rules").addEventListener("scroll", () => { $("gutter").scrollTop = $("rules").scrollTop; });
  $("apply").onclick = () => api("rules/apply", { text: $("rules").value }).then((s) => {
    show(s);
    const a = s.applied;
    // The edited rules in force: the title and the selector say so.
    edited = true;
    $("title").textContent = s.variant.title + " (edited rules)";
    const v = $("variant");
    let o = Array.from(v.options).find((x) => x.value === "");
    if (!o) { o = new Option("", ""); v.append(o); }
    o.textContent = "edited: " + s.variant.title;
    v.value = "";
    say(a.stopped ? `kept ${a.kept} of ${a.of} moves; move ${a.stopped.ply + 1} (${a.stopped.move}) stops being legal: ${a.stopped.why}`
      : a.of === 0 ? "applied: the game has no moves yet" : a.of === 1 ? "applied: the game's move is still legal" : `applied: all ${a.of} moves are still legal`, "", $("rules-msg"));
  }).catch((e) => fail(e, $("rules-msg")));
  $("save").onclick = () => api("rules/save", { text: $("rules").value, path: $("save-path").value || null })
    .then((r) => say(`saved ${r.saved}` + (r.backup ? ` (the old file is ${r.backup})` : ""), "", $("rules-msg")))
    .catch((e) => fail(e, $("rules-msg")));
  $("download").onclick = () => download(($("save-path").value || state.variant.name + ".rules").split("/").pop(), $("rules").value);
  $("describe").onclick = () => api("rules").then((r) => { $("description").textContent = r.describe; }).catch((e) => fail(e, $("rules-msg")));
  $("set-fen").onclick = () => api("fen", { fen: $("fen").value }).then((s) => show(s)).catch(fail);
  $("turn").onchange = () => api("setup", { turn: Number($("turn").value) }).then((s) => show(s)).catch(fail);
  wireSetupExtras(); // hand.js
  $("clear").onclick = () => api("setup", { clear: true }).then((s) => show(s)).catch(fail);
  $("pdn-file").onchange = () => {
    const f = $("pdn-file").files[0];
    if (f) f.text().then((t) => { $("pdn").value = t; });
  };
  const importGame = (game) => api("pdn/import", { text: $("pdn").value, game }).then((s) => {
    show(s);
    const sel = $("pdn-games");
    sel.textContent = "";
    s.pdn.games.forEach((g, i) => sel.append(new Option(`${i + 1}. ${g.title}` + (g.result ? ` ${g.result}` : "") + (g.date ? ` (${g.date})` : ""), String(i))));
    sel.value = String(s.pdn.loaded);
    sel.hidden = s.pdn.games.length < 2;
    if (s.pdn.switched) loadRules();
    say(`game ${s.pdn.loaded + 1} of ${s.pdn.games.length} loaded` + (s.pdn.switched ? ` (${s.variant.title})` : "") + (s.pdn.notes.length ? "; " + s.pdn.notes.join("; ") : ""), "", $("pdn-msg"));
  }).catch((e) => fail(e, $("pdn-msg")));
  $("import").onclick = () => importGame(0);
  $("pdn-games").onchange = () => importGame(Number($("pdn-games").value));
  // Export into its own box (the pasted text stays), and a download on request.
  $("export").onclick = () => api("pdn/export").then((r) => { $("pdn-out").value = r.pdn; $("pdn-out").hidden = false; }).catch((e) => fail(e, $("pdn-msg")));
  $("pdn-download").onclick = () => api("pdn/export").then((r) => download(state.variant.name + ".pdn", r.pdn)).catch((e) => fail(e, $("pdn-msg")));
  // The current move's comment and NAGs.
  $("note-save").onclick = () => api("annotate", { node: state.tree.current, comment: $("note").value }).then((s) => show(s, true)).catch(fail);
  for (const b of document.querySelectorAll("#nags button")) {
    b.onclick = () => {
      const n = state.tree.nodes[state.tree.current];
      const g = Number(b.dataset.nag);
      const nags = (n.nags || []).includes(g) ? n.nags.filter((x) => x !== g) : [g];
      api("annotate", { node: state.tree.current, nags }).then((s) => show(s, true)).catch(fail);
    };
  }
  $("coll-path").onchange = () => { const o = $("coll-path").selectedOptions[0]; if (o && o.dataset.dir) browse(o.value); };
  $("coll-open").onclick = () => { const o = $("coll-path").selectedOptions[0]; if (o && o.dataset.dir) browse(o.value); };
  $("coll-search").onclick = searchCollection;
  $("collection-box").addEventListener("toggle", () => { if ($("collection-box").open && !$("coll-path").options.length) browse(""); });
  $("study").onclick = study;
  $("review").onclick = review;
  $("review-stop").onclick = () => api("study/stop", {}).catch((e) => fail(e, $("review-msg")));
  $("endgame").onclick = endgame;
  $("study-stop").onclick = () => api("study/stop", {}).catch(fail);
  $("variant").onchange = () => $("variant").value && api("variant", { name: $("variant").value }).then((s) => {
    edited = false; show(s); loadRules(); }).catch(fail);
}

// ---------------------------------------------------------------- collection

// The folder picker: the folder itself (searched), its parent, its sub-folders, its PDN files.
async function browse(path) {
  try {
    const r = await api("collection/list", { path });
    const sel = $("coll-path");
    sel.textContent = "";
    const add = (label, value, dir) => { const o = new Option(label, value); if (dir) o.dataset.dir = "1"; sel.append(o); return o; };
    add((r.path || ".") + "/  (its .pdn files)", r.path, false);
    if (r.parent !== null) add("../  (up)", r.parent, true);
    for (const f of r.folders) add(f + "/", f, true);
    for (const f of r.files) add(f.path, f.path, false);
    sel.value = r.path;
    say(r.cut || `${r.files.length} PDN files, ${r.folders.length} folders`, "", $("coll-msg"));
  } catch (e) { fail(e, $("coll-msg")); }
}

async function searchCollection() {
  const q = { path: $("coll-path").value || "", position: $("coll-position").checked };
  for (const k of ["player", "white", "black", "event", "result", "variant", "date"]) q[k] = $("coll-" + k).value;
  const list = $("coll-results");
  list.textContent = "";
  try {
    const r = await api("collection/search", q);
    for (const g of r.results) {
      const li = document.createElement("li");
      const b = document.createElement("button");
      b.className = "coll-result";
      b.textContent = g.title + (g.result ? " " + g.result : "") + (g.date ? ` (${g.date})` : "") + ` · ${g.variant}` + (g.ply !== null ? ` · ply ${g.ply}` : "");
      b.title = `${g.file}, game ${g.game + 1}`;
      b.onclick = () => api("collection/open", { path: g.file, game: g.game, ply: g.ply }).then((s) => {
        show(s);
        if (s.pdn.switched) loadRules();
        say(`${g.file}: game ${g.game + 1} opened` + (g.ply !== null ? ` at ply ${g.ply}` : ""), "", $("coll-msg"));
      }).catch((e) => fail(e, $("coll-msg")));
      li.append(b);
      list.append(li);
    }
    const where = r.position ? ` through this position (${r.position})` : "";
    say(`${r.results.length} of ${r.games} games in ${r.files} files${where}` + (r.notes.length ? "; " + r.notes.join("; ") : ""), "", $("coll-msg"));
  } catch (e) { fail(e, $("coll-msg")); }
}

async function main() {
  wire();
  try {
    const s = await api("state");
    show(s);
    api("variants").then((r) => {
      const v = $("variant");
      for (const x of r.variants) v.append(new Option(x.name, x.name));
      if (!r.variants.some((x) => x.name === state.variant.name)) v.append(new Option(state.variant.name, state.variant.name));
      v.value = state.variant.name;
    }).catch(fail);
    loadRules();
    api("engines").then((r) => {
      const sel = $("engine-choice");
      for (const e of r.engines) sel.append(new Option(e.name, e.name));
      $("engine-choice-label").hidden = r.engines.length < 2;
    }).catch(fail);
  } catch (e) { fail(e); }
}

main();
// `?selftest=1`: the scripted check of the page (see selftest.js), for browsers tested without a
// WebDriver.
if (new URLSearchParams(location.search).has("selftest")) {
  const t = document.createElement("script");
  t.src = "/selftest.js";
  document.body.append(t);
}
