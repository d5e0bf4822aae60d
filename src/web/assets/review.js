// damelab's page: the game's review. The server scores every position of the main line; this
// script draws the evaluation graph under the board and follows the review's stream. It shares
// app.js's globals (`state`, `$`, `el`, `api`, `show`, `say`, `fail`, `nagText`): loaded before
// it, nothing here runs until app.js calls `review` or `drawGraph`.

// The review's evaluations (first side's view, in men), by node, and the marks it made.
let reviewed = [];
const REVIEW_CAP = 10;
function chances(x) { return 2 / (1 + Math.exp(-x / 2)) - 1; }

// The evaluation graph under the board: winning chances along the main line, a point per
// position (click it to go there), marked moves in the colour of their mark.
function drawGraph() {
  const box = $("graph");
  if (!reviewed.length) { box.textContent = ""; return; }
  const W = 600, H = 110, n = Math.max(reviewed.length - 1, 1);
  const svg = el("svg", { viewBox: `0 0 ${W} ${H}`, role: "img", "aria-label": "evaluation graph", id: "graph-svg" });
  el("rect", { x: 0, y: 0, width: W, height: H / 2, fill: "#f4efe6" }, svg);
  el("rect", { x: 0, y: H / 2, width: W, height: H / 2, fill: "#3b3b3b" }, svg);
  const at = (i, v) => [i / n * W, (1 - chances(v)) * H / 2];
  const pts = reviewed.map((r, i) => at(i, r.eval));
  el("path", { d: "M0," + H / 2 + " " + pts.map((p) => "L" + p[0].toFixed(1) + "," + p[1].toFixed(1)).join(" ") + ` L${pts[pts.length - 1][0]},${H / 2} Z`, fill: "rgba(160, 160, 160, 0.55)", stroke: "none" }, svg);
  el("path", { d: pts.map((p, i) => (i ? "L" : "M") + p[0].toFixed(1) + "," + p[1].toFixed(1)).join(" "), fill: "none", stroke: "#1d5fbf", "stroke-width": 2 }, svg);
  el("line", { x1: 0, y1: H / 2, x2: W, y2: H / 2, stroke: "#888", "stroke-width": 0.5 }, svg);
  const cur = reviewed.findIndex((r) => r.node === state.tree.current);
  if (cur >= 0) el("line", { x1: pts[cur][0], y1: 0, x2: pts[cur][0], y2: H, stroke: "#e0a000", "stroke-width": 2, class: "graph-current" }, svg);
  const nodes = state.tree.nodes;
  reviewed.forEach((r, i) => {
    const nags = (nodes[r.node] && nodes[r.node].nags) || [];
    const m = nags.includes(4) ? "#c0161f" : nags.includes(2) ? "#e07000" : nags.includes(6) ? "#d4b000" : null;
    const c = el("circle", { cx: pts[i][0], cy: pts[i][1], r: m ? 5 : 3, fill: m || "#1d5fbf", class: "graph-point" + (m ? " graph-mark" : ""), "data-node": r.node }, svg);
    const t = el("title", {}, c);
    t.textContent = (nodes[r.node] && nodes[r.node].text ? nodes[r.node].text + nagText(nags) + ": " : "start: ") + r.score;
    c.onclick = () => api("goto", { node: r.node }).then((st) => show(st)).catch(fail);
  });
  box.replaceChildren(svg);
}

let reviewStream = null;
async function review() {
  try {
    const r = await api("review", { seconds: Number($("review-secs").value) });
    if (reviewStream) reviewStream.close();
    reviewed = [];
    drawGraph();
    const bar = $("review-progress");
    bar.hidden = false;
    bar.value = 0;
    bar.max = r.plies + 1;
    say(`reviewing ${r.plies} moves…`, "", $("review-msg"));
    const es = new EventSource(r.stream);
    reviewStream = es;
    es.addEventListener("progress", (ev) => {
      const p = JSON.parse(ev.data);
      bar.value = p.done;
      reviewed.push({ node: p.node, eval: p.eval, score: p.score });
      drawGraph();
    });
    es.addEventListener("done", async (ev) => {
      const d = JSON.parse(ev.data);
      es.close();
      reviewStream = null;
      const count = (g) => d.marks.filter((m) => m.nag === g).length;
      show(await api("state"), true);
      drawGraph();
      say(`${d.stopped ? "stopped" : "reviewed"}: ${count(6)} inaccuracies (?!), ${count(2)} mistakes (?), ${count(4)} blunders (??)`, "", $("review-msg"));
    });
    es.onerror = () => { es.close(); if (reviewStream === es) reviewStream = null; };
  } catch (e) { fail(e, $("review-msg")); }
}

