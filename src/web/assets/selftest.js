// The page's self-test, loaded by app.js when the address has `?selftest=1`: a scripted sequence
// through the page's own handlers (pointer events on the board, buttons, the move box, the PDN
// box, the rules editor, the analysis), then the result is posted to `/api/selftest`, where a
// test reads it. It lets any browser be checked without a WebDriver for it (Firefox's
// geckodriver is not packaged here). It switches the page to International draughts first, on any
// variant the server was started with. `?selftest=hand` plays the pieces in hand and the single
// combat instead: Mraha wa Bwe's first drops by clicks, Dablot Prejjesne's declaration by clicks.
"use strict";

(function () {
  const steps = [];
  const log = (name, ok, t0, detail) => steps.push({ name, ok, ms: Math.round(performance.now() - t0), detail: detail || "" });
  const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
  async function until(what, test, secs) {
    const t0 = performance.now();
    while (performance.now() - t0 < secs * 1000) {
      try { if (test()) return; } catch (e) { /* not yet */ }
      await sleep(25);
    }
    throw new Error(`waited ${secs} s for ${what}; the page says: ${$("message").textContent}`);
  }
  // A press and release on the centre of the square named `name` (or `attr`), as a mouse would.
  function press(name, attr) {
    const r = document.querySelector(`#board .sq[data-${attr || "name"}="${name}"]`);
    if (!r) throw new Error(`no square ${name}`);
    r.scrollIntoView({ block: "nearest" });
    const b = r.getBoundingClientRect();
    const at = { bubbles: true, cancelable: true, clientX: b.left + b.width / 2, clientY: b.top + b.height / 2, pointerId: 1, isPrimary: true };
    r.dispatchEvent(new PointerEvent("pointerdown", at));
    r.dispatchEvent(new PointerEvent("pointerup", at));
  }
  const moves = () => document.querySelectorAll("#moves .mv").length;
  async function step(name, fn) {
    const t0 = performance.now();
    try { await fn(); log(name, true, t0); } catch (e) { log(name, false, t0, String(e.message || e)); throw e; }
  }
  // Switch the page to a bundled variant (a new game on it).
  async function variant(name) {
    await until("the variant list", () => Array.from($("variant").options).some((o) => o.value === name), 10);
    // The server's answer to this change, not the state before it: on the variant already shown
    // the change starts a new game, and a click played before that answer came was undone by it.
    const before = state;
    $("variant").value = name;
    $("variant").dispatchEvent(new Event("change"));
    await until(name, () => state !== before && state.variant.name === name, 10);
  }
  const counts = () => Array.from(document.querySelectorAll("#hands .hand-pile .count"), (c) => c.textContent).join(" ");
  async function runHand() {
    await step("on Mraha wa Bwe: the hands drawn", async () => {
      await until("the state", () => typeof state !== "undefined" && state !== null, 10);
      await variant("mraha-wa-bwe");
      await until("both hands of 12", () => counts() === "×12 ×12", 5);
    });
    await step("a drop by clicks: the hand counts down", async () => {
      press("a1");
      await until("a1 chosen", () => document.querySelectorAll("#board .drop-chosen").length === 1, 5);
      press("b2");
      await until("the drop played", () => moves() === 1 && counts() === "×12 ×10", 5);
    });
    await step("undo: the hand counts up", async () => {
      $("undo").click();
      await until("undone", () => state.ply === 0 && counts() === "×12 ×12", 5);
    });
    await step("on Dablot: a declaration by clicks", async () => {
      await variant("dablot-prejjesne");
      $("fen").value = "W:Wc3:Bg9";
      $("set-fen").click();
      await until("two lone men", () => document.querySelectorAll("#board .piece").length === 2, 5);
      press("c3", "alg");
      press("d4", "alg");
      await until("the question", () => document.querySelector("#choices .choice-declare"), 5);
      document.querySelector("#choices .choice-declare").click();
      await until("the combat declared", () => state.combat && state.combat.declared && state.fen.endsWith(":combat"), 5);
    });
    await step("the combat marked", async () => {
      await until("the label and the rings", () => !$("combat").hidden && $("combat").textContent.includes("single combat") &&
        document.querySelectorAll("#board .combat-ring").length === 2, 5);
    });
  }
  async function run() {
    if (new URLSearchParams(location.search).get("selftest") === "hand") return runHand();
    // On any variant the server was started with: the test switches the page to International.
    await step("on International", async () => {
      await until("the state", () => typeof state !== "undefined" && state !== null, 10);
      if (state.variant.name !== "international") {
        await until("the variant list", () => Array.from($("variant").options).some((o) => o.value === "international"), 10);
        $("variant").value = "international";
        $("variant").dispatchEvent(new Event("change"));
        await until("International", () => state.variant.name === "international", 10);
      } else if (state.ply > 0 || state.tree.nodes.length > 1) {
        $("new").click();
        await until("a new game", () => state.tree.nodes.length === 1, 10);
      }
    });
    await step("first board", () => until("pieces", () => document.querySelectorAll("#board .piece").length === 40, 10));
    await step("click a piece: its targets", async () => {
      press("32");
      await until("targets", () => document.querySelectorAll("#board .target").length > 0, 5);
    });
    await step("click a target: the move is played", async () => {
      press("28");
      await until("one move", () => moves() === 1, 5);
    });
    await step("the reply and a capture", async () => {
      press("19"); press("23");
      await until("two moves", () => moves() === 2, 5);
      press("28"); press("19");
      await until("the capture", () => moves() === 3 && document.querySelectorAll("#board .captured").length === 1, 5);
    });
    await step("undo and redo", async () => {
      $("undo").click();
      await until("undone", () => state.ply === 2, 5);
      $("redo").click();
      await until("redone", () => state.ply === 3, 5);
    });
    await step("a move typed", async () => {
      const box = $("movein");
      box.value = "14x23";
      box.dispatchEvent(new KeyboardEvent("keydown", { key: "Enter", bubbles: true }));
      await until("four moves", () => state.ply === 4, 5);
    });
    await step("PDN import with a variation", async () => {
      $("pdn").value = "1. 32-28 19-23 (1... 18-23 2. 37-32) 2. 28x19 14x23 *";
      $("import").click();
      await until("the variation in the move list", () => state.tree.nodes.length === 7 && $("moves").textContent.includes("18-23"), 5);
    });
    await step("a rules mistake and its diagnostic", async () => {
      await until("the rules", () => $("rules").value.length > 0, 5);
      const t = $("rules");
      const good = t.value;
      t.value = good.replace(/\bstep\b/, "stpe");
      t.dispatchEvent(new Event("input"));
      await until("a diagnostic", () => document.querySelector("#diagnostics .diag"), 10);
      t.value = good;
      t.dispatchEvent(new Event("input"));
      await until("no errors", () => $("diagnostics").textContent === "no errors", 10);
    });
    await step("analysis and its arrow", async () => {
      $("secs").value = "1";
      $("analyse").click();
      await until("the arrow", () => document.querySelector("#board .arrow"), 15);
      await until("the end of the analysis", () => document.querySelector("#lines .done"), 15);
    });
  }
  async function report(passed, error) {
    const body = { passed, error: error || "", steps, first_board_ms: window.__firstBoard || -1, agent: navigator.userAgent };
    await fetch("/api/selftest", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
  }
  run().then(() => report(true), (e) => report(false, String(e.message || e)));
})();
