// damelab's page: pieces in hand, drops and a declared single combat. Loaded before app.js, whose
// drawBoard(), clickSquare() and offerChoices() call in here. Like app.js it knows no rules: the
// hands are the server's counts, the drops and declarations it offers are the server's legal
// moves (a drop's squares are its `route`, its piece its `kind`; a declaration has `declares`).
"use strict";

let dropSel = null; // {fen, kind, squares} while choosing the squares of a drop

function dropMoves() { return state.legal.map((m, i) => ({ m, i })).filter((x) => x.m.drop); }

// The side to move places pieces instead of moving.
function placing() { return state.legal.some((m) => m.drop); }

// The kinds the side to move may place now, in the rules' order.
function dropKinds() { return [...new Set(dropMoves().map((x) => x.m.kind))].sort((a, b) => a - b); }

// The drop being chosen, started afresh in each new position (after a move, undo, set-up, load).
function currentDrop() {
  if (!dropSel || dropSel.fen !== state.fen) dropSel = { fen: state.fen, kind: dropKinds()[0], squares: [] };
  return dropSel;
}

// The legal drops of the chosen kind that hold every square chosen so far, and `extra`.
function dropsWith(extra) {
  const d = currentDrop();
  const want = extra === undefined ? d.squares : d.squares.concat([extra]);
  return dropMoves().filter((x) => x.m.kind === d.kind && want.every((s) => x.m.route.includes(s)));
}

// A click on the board while placing: an empty square is chosen when some legal drop holds it
// with the squares chosen before; a chosen square is let go; a set that is a whole legal drop is
// played. A square no drop can use is explained by the server (`explain @c3,…`).
function dropClick(sq) {
  const d = currentDrop();
  const at = d.squares.indexOf(sq);
  if (at >= 0) {
    d.squares.splice(at, 1);
    say("");
    $("choices").textContent = "";
    drawBoard();
    return;
  }
  const ms = dropsWith(sq);
  if (!ms.length) {
    const names = d.squares.concat([sq]).map((s) => squareAt(s).name).join(",");
    const letter = d.kind > 0 ? state.board.kinds[d.kind].letter : "";
    api("explain", { text: letter + "@" + names })
      .then((r) => say(r.text))
      .catch((e) => say(e.message, e.help));
    return;
  }
  d.squares.push(sq);
  const whole = ms.find((x) => x.m.route.length === d.squares.length);
  if (whole) return playIndex(whole.i);
  // Not an error: how far the drop is, where app.js offers its choices.
  const need = ms[0].m.route.length;
  say("");
  $("choices").textContent = `${d.squares.length} of ${need} squares chosen: click ${need - d.squares.length} more (click a chosen one to let it go)`;
  drawBoard();
}

// Where the board marks a drop: the squares chosen, and those a legal drop could add.
function drawDropMarks(svg) {
  if (!placing()) return;
  const d = currentDrop();
  for (const sq of d.squares) {
    mark(svg, sq, "rgba(80, 200, 120, 0.6)");
    const [cx, cy] = centre(sq);
    el("circle", { cx, cy, r: S * 0.3, fill: "none", stroke: "#14783c", "stroke-width": 3, "stroke-dasharray": "5 4", class: "drop-chosen", "data-sq": sq, "pointer-events": "none" }, svg);
  }
  const open = new Set();
  for (const x of dropsWith()) for (const sq of x.m.route) if (!d.squares.includes(sq)) open.add(sq);
  for (const sq of open) {
    const [cx, cy] = centre(sq);
    el("circle", { cx, cy, r: S * 0.07, fill: "rgba(20, 120, 60, 0.55)", class: "drop-target", "data-sq": sq, "pointer-events": "none" }, svg);
  }
}

// ------------------------------------------------------------------- the hands

// A pile of men in a side's colour (up to three discs, one above the other), its kind's letter
// on a king.
function pileSvg(side, kind, count) {
  const colour = state.board.sides[side].colour;
  const ring = luminance(colour) > 0.3 ? "#262626" : "#fafaf5";
  const svg = el("svg", { viewBox: "0 0 40 44", width: 34, height: 37, "aria-hidden": "true" });
  const discs = Math.max(1, Math.min(3, count));
  for (let i = 0; i < discs; i++) {
    el("ellipse", { cx: 20, cy: 32 - i * 7, rx: 16, ry: 9, fill: colour, stroke: ring, "stroke-width": 2 }, svg);
  }
  if (kind > 0) {
    const t = el("text", { x: 20, y: 36 - (discs - 1) * 7, "text-anchor": "middle", "font-size": 13, "font-weight": "bold", fill: ring }, svg);
    t.textContent = state.board.kinds[kind].letter;
  }
  return svg;
}

// Each side's hand beside the board, the side drawn at the top first: a pile a kind held, with
// its count (`×12`). The side to move's piles choose the kind it places when it holds several.
function drawHands() {
  const box = $("hands");
  const hands = state.hands;
  box.hidden = !hands;
  if (!hands) { box.textContent = ""; return; }
  box.textContent = "";
  const kinds = placing() ? dropKinds() : [];
  const d = placing() ? currentDrop() : null;
  for (const side of flipped ? [0, 1] : [1, 0]) {
    const div = document.createElement("div");
    div.className = "hand" + (side === state.turn ? " to-move" : "");
    div.dataset.side = side;
    const name = document.createElement("div");
    name.className = "hand-name";
    name.textContent = state.board.sides[side].name;
    div.append(name);
    const held = hands[side].map((n, k) => [k, n]).filter(([, n]) => n > 0);
    for (const [kind, n] of held.length ? held : [[0, 0]]) {
      const b = document.createElement("button");
      b.className = "hand-pile" + (n === 0 ? " empty" : "");
      b.dataset.side = side;
      b.dataset.kind = kind;
      const what = state.board.sides[side].name + " " + state.board.kinds[kind].name;
      b.title = `${what}: ${n} in hand`;
      b.setAttribute("aria-label", b.title);
      const count = document.createElement("span");
      count.className = "count";
      count.textContent = "×" + n;
      b.append(pileSvg(side, kind, n), count);
      const choosable = d && side === state.turn && kinds.length > 1 && kinds.includes(kind);
      if (choosable) {
        b.setAttribute("aria-pressed", String(d.kind === kind));
        b.onclick = () => { d.kind = kind; d.squares = []; $("choices").textContent = "placing: " + what; drawBoard(); };
      } else {
        b.tabIndex = -1;
      }
      div.append(b);
    }
    box.append(div);
  }
}

// ------------------------------------------------------------- single combat

// Under a declared combat: a label under the board and a dashed ring round each of the two
// pieces. When the side to move may declare one, the label says how.
function drawCombat(svg) {
  const c = state.combat;
  const label = $("combat");
  label.hidden = !c || !(c.declared || c.open);
  label.classList.toggle("declared", !!(c && c.declared));
  label.textContent = !c ? "" : c.declared
    ? "⚔ single combat: every quiet move must come nearer to the enemy piece"
    : c.open ? "a single combat may be declared: play a move that comes nearer and choose “declare single combat”" : "";
  if (!c || !c.declared) return;
  for (const p of state.pieces) {
    const [cx, cy] = centre(p.sq);
    el("circle", { cx, cy, r: S * 0.45, fill: "none", stroke: "#a3121b", "stroke-width": 3, "stroke-dasharray": "6 4", class: "combat-ring", "pointer-events": "none" }, svg);
  }
}

// Two moves the squares cannot tell apart that differ only in declaring a combat (`c3-d4` and
// `@c3-d4`): ask which. False for any other pair (the page lists those as they are).
function offerDeclaration(list) {
  if (list.length !== 2) return false;
  const declared = list.find((x) => x.m.declares), plain = list.find((x) => !x.m.declares);
  if (!declared || !plain) return false;
  const box = $("choices");
  box.textContent = plain.m.text + ": ";
  const move = document.createElement("button");
  move.className = "choice-move";
  move.textContent = "move";
  move.onclick = () => playIndex(plain.i);
  const declare = document.createElement("button");
  declare.className = "choice-declare";
  declare.textContent = "declare single combat";
  declare.title = declared.m.text;
  declare.onclick = () => playIndex(declared.i);
  box.append(move, " ", declare);
  return true;
}

// ------------------------------------------------------------------ set-up

// The set-up's pieces in hand (a count a side and kind) and its combat box, shown for variants
// that have them; the server refuses what the position does not allow, and says why.
let setupKey = null;
function drawSetupExtras() {
  const hands = state.hands, row = $("setup-hands");
  const key = state.variant.name + "|" + JSON.stringify(state.board.kinds) + "|" + !!hands;
  if (key !== setupKey) {
    setupKey = key;
    row.textContent = "";
    if (hands) {
      state.board.sides.forEach((s, side) => state.board.kinds.forEach((k, kind) => {
        const l = document.createElement("label");
        const i = document.createElement("input");
        Object.assign(i, { type: "number", min: 0, max: 200, className: "hand-count" });
        i.dataset.side = side;
        i.dataset.kind = kind;
        i.setAttribute("aria-label", `${s.name} ${k.name} in hand`);
        i.onchange = () => api("setup", { hand: [side, kind, Number(i.value)] }).then((st) => show(st)).catch((e) => { fail(e); drawSetupExtras(); });
        l.append(`${s.name} ${k.name} in hand `, i);
        row.append(l);
      }));
    }
  }
  row.hidden = !hands;
  for (const i of row.querySelectorAll("input.hand-count")) {
    if (document.activeElement !== i) i.value = String(hands[i.dataset.side][i.dataset.kind]);
  }
  $("setup-combat-row").hidden = !state.combat;
  $("setup-combat").checked = !!(state.combat && state.combat.declared);
}

function wireSetupExtras() {
  const box = $("setup-combat");
  box.onchange = () => api("setup", { combat: box.checked }).then((s) => show(s))
    .catch((e) => { fail(e); box.checked = !box.checked; });
}

// Called by drawBoard() after the pieces: everything above, drawn again with the board.
function drawHandExtras(svg) {
  drawDropMarks(svg);
  drawCombat(svg);
  drawHands();
  drawSetupExtras();
}
