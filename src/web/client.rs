//! Per-client state (each page has its own variant, game tree and rules text, so concurrent
//! clients cannot touch each other's games) and the JSON the page draws from: the board's squares,
//! the pieces, the legal moves, the last move, the move tree. The page knows no rules.

use crate::engine::{Move, Position, Rules, Sq};
use crate::notation::{move_to_string, to_fen};
use crate::spec::SquareSet;
use crate::workbench::tree::Tree;
use crate::Variant;
use serde_json::{json, Value};
use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Instant;

/// The most clients (pages) one server keeps; the one unseen longest is dropped for a new one.
pub const MAX_CLIENTS: usize = 64;

/// One page's state.
pub struct Client {
    pub variant: Variant,
    pub tree: Tree,
    /// The rules text in force, and the file it came from (relative to the start directory when
    /// it is inside it; `None` for a bundled variant or text typed in the editor).
    pub rules_text: String,
    pub rules_path: Option<PathBuf>,
    /// The stop flag of this client's running search, if any.
    pub job: Option<Arc<AtomicBool>>,
    pub seen: Instant,
}

impl Client {
    pub fn new(variant: Variant, text: String, path: Option<PathBuf>) -> Client {
        let tree = Tree::new(variant.rules.clone(), variant.rules.start);
        Client {
            variant,
            tree,
            rules_text: text,
            rules_path: path,
            job: None,
            seen: Instant::now(),
        }
    }

    pub fn rules(&self) -> &Arc<Rules> {
        &self.variant.rules
    }

    pub fn position(&self) -> &Position {
        &self.tree.nodes[self.tree.current].pos
    }

    /// Stop the running search, if any (a new one is starting, or the page asked).
    pub fn cancel_job(&mut self) {
        if let Some(j) = self.job.take() {
            j.store(true, Ordering::SeqCst);
        }
    }
}

/// The variant a new client starts on: what `damelab serve` was given.
#[derive(Clone)]
pub struct Start {
    pub variant: Variant,
    pub text: String,
    pub path: Option<PathBuf>,
}

/// Every client's state, by the id its page sent.
pub struct Clients {
    start: Start,
    map: Mutex<HashMap<String, Arc<Mutex<Client>>>>,
}

impl Clients {
    pub fn new(start: Start) -> Clients {
        Clients {
            start,
            map: Mutex::new(HashMap::new()),
        }
    }

    /// The client of `id`, made on its first request.
    pub fn get(&self, id: &str) -> Arc<Mutex<Client>> {
        let mut map = lock(&self.map);
        if let Some(c) = map.get(id) {
            lock(c).seen = Instant::now();
            return c.clone();
        }
        if map.len() >= MAX_CLIENTS {
            let oldest = map
                .iter()
                .min_by_key(|(_, c)| lock(c).seen)
                .map(|(k, _)| k.clone());
            if let Some(k) = oldest {
                if let Some(c) = map.remove(&k) {
                    lock(&c).cancel_job();
                }
            }
        }
        let s = &self.start;
        let c = Arc::new(Mutex::new(Client::new(
            s.variant.clone(),
            s.text.clone(),
            s.path.clone(),
        )));
        map.insert(id.to_string(), c.clone());
        c
    }
}

/// Lock a mutex; a thread that panicked while holding it left a state that is still whole (every
/// change is made in one step), so the lock is taken anyway rather than failing every request.
pub fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// The board's layout: size, which squares are playable, their names, and where the diagrams'
/// layout places each point (`x`, `y`; `fx`, `fy` seen from the second side) in a drawing of
/// `view` units with cells `cell` units across: the page draws and clicks every board form there.
pub fn board_json(rules: &Rules) -> Value {
    use crate::diagram::{Layout, HEX_R, SQ};
    let geo = &rules.geo;
    let spec = &rules.spec;
    let (plain, turned) = (
        Layout::new(rules, 0.0, 0.0, false),
        Layout::new(rules, 0.0, 0.0, true),
    );
    let mut squares = Vec::new();
    for r in 0..geo.height {
        for f in 0..geo.width {
            if let Some(sq) = geo.square((f, r)).filter(|&s| geo.is_playable(s)) {
                // Hundredths of a unit are plenty for a drawing, and keep the JSON short.
                let c = |v: f64| (v * 100.0).round() / 100.0;
                let ((x, y), (fx, fy)) = (plain.centre(sq), turned.centre(sq));
                let (x, y, fx, fy) = (c(x), c(y), c(fx), c(fy));
                squares.push(json!({
                    "sq": sq, "file": f, "rank": r, "name": geo.name(sq), "alg": geo.algebraic(sq),
                    "x": x, "y": y, "fx": fx, "fy": fy,
                }));
            }
        }
    }
    let lines: Vec<[Sq; 2]> = match plain.form {
        crate::diagram::Form::Points => plain.lines().into_iter().map(|(a, b)| [a, b]).collect(),
        _ => Vec::new(),
    };
    let colour = |s: usize| crate::diagram::side_colour(rules, s).hex();
    json!({
        "width": geo.width,
        "height": geo.height,
        "all": spec.board.squares == SquareSet::All,
        "a1_light": spec.board.squares == SquareSet::DarkA1Light,
        "numbered": geo.notation == crate::spec::Notation::Numbered,
        "form": plain.form.name(),
        "cell": SQ,
        "hex_r": HEX_R,
        "view": [plain.width, plain.height],
        "lines": lines,
        "squares": squares,
        "sides": (0..2).map(|s| json!({
            "name": spec.sides[s].name, "letter": spec.sides[s].letter.to_string(),
            "colour": colour(s),
        })).collect::<Vec<_>>(),
        "kinds": spec.pieces.iter().map(|p| json!({
            "name": p.name, "letter": p.letter.to_string(),
        })).collect::<Vec<_>>(),
    })
}

/// A move as the page reads it. A drop (pieces placed from hand) has `drop` and the `kind` it
/// places, its squares in `route`; a move that declares a single combat has `declares`.
pub fn move_json(rules: &Rules, mv: &Move) -> Value {
    let captured: Vec<Sq> = crate::engine::geometry::BitIter(mv.captured).collect();
    let mut v = json!({
        "from": mv.from,
        "to": mv.to,
        "route": mv.route(),
        "captured": captured,
        "text": move_to_string(rules, mv),
    });
    if mv.is_drop() {
        v["drop"] = json!(true);
        v["kind"] = json!(mv.kind_before);
    }
    if mv.declares() {
        v["declares"] = json!(true);
    }
    v
}

/// The pieces in hand, `hands[side][kind]`, in a variant with pieces in hand; else null.
fn hands_json(rules: &Rules, pos: &Position) -> Value {
    if !rules.drops.active {
        return Value::Null;
    }
    json!((0..2)
        .map(|s| pos.hand[s][..rules.kinds].to_vec())
        .collect::<Vec<_>>())
}

/// A single combat in a variant with the rule: whether one is declared (`declared`) and whether
/// the side to move may declare one (`open`); null in variants without it.
fn combat_json(rules: &Rules, pos: &Position) -> Value {
    if rules.combat.is_none() {
        return Value::Null;
    }
    json!({ "declared": pos.in_combat(), "open": rules.may_declare(pos) })
}

fn pieces_json(pos: &Position) -> Vec<Value> {
    let mut out = Vec::new();
    for side in 0..2 {
        for (sq, kind) in pos.pieces(side) {
            // Under `take top`, a column's pieces under its top, top first.
            let under: Vec<[usize; 2]> = pos.stacks.under(sq).map(|(s, k)| [s, k]).collect();
            if under.is_empty() {
                out.push(json!({ "sq": sq, "side": side, "kind": kind }));
            } else {
                out.push(json!({ "sq": sq, "side": side, "kind": kind, "under": under }));
            }
        }
    }
    out
}

/// Everything the page draws after a change: position, legal moves, last move, tree.
pub fn state_json(c: &Client) -> Value {
    let rules = c.rules();
    let tree = &c.tree;
    let node = &tree.nodes[tree.current];
    let game = tree.game();
    let (legal, legal_error) = match game.try_legal_moves() {
        Ok(l) => (l.iter().map(|m| move_json(rules, m)).collect(), None),
        Err(e) => (Vec::new(), Some(e.to_string())),
    };
    let last = match (node.parent, node.mv) {
        (Some(_), Some(mv)) => move_json(rules, &mv),
        _ => Value::Null,
    };
    // Parents come before their children in the tree's order: one pass gives every depth.
    let mut depth = vec![0usize; tree.nodes.len()];
    for (i, n) in tree.nodes.iter().enumerate() {
        if let Some(p) = n.parent {
            depth[i] = depth[p] + 1;
        }
    }
    let nodes: Vec<Value> = tree
        .nodes
        .iter()
        .enumerate()
        .map(|(i, n)| {
            let said = crate::workbench::notes::read(&n.notes.comment);
            json!({
                "nags": n.notes.nags,
                "comment": said.text,
                "clock": said.clock,
                "eval": said.eval,
                "shapes": said.shapes,
                "num": tree.number(n.parent.unwrap_or(0), depth[i].saturating_sub(1)).0,
                "parent": n.parent,
                "text": n.mv.map(|m| move_to_string(rules, &m)),
                "children": n.children,
                "white": tree.nodes[n.parent.unwrap_or(0)].pos.turn()
                    == rules.spec.first_to_move as usize,
            })
        })
        .collect();
    json!({
        "variant": { "name": c.variant.name(), "title": rules.spec.title },
        "board": board_json(rules),
        "pieces": pieces_json(&node.pos),
        "hands": hands_json(rules, &node.pos),
        "combat": combat_json(rules, &node.pos),
        "turn": node.pos.turn(),
        "fen": to_fen(rules, &node.pos),
        "legal": legal,
        "legal_error": legal_error,
        "last": last,
        "result": game.describe_result(),
        "over": game.result().is_some(),
        "tree": { "nodes": nodes, "current": tree.current, "path": tree.path_to(tree.current) },
        "ply": tree.path_to(tree.current).len() - 1,
        // A search of this client's is running (its stop flag is not set).
        "thinking": c.job.as_ref().is_some_and(|j| !j.load(Ordering::SeqCst)),
        "rules_path": c.rules_path.as_ref().map(|p| p.display().to_string()),
    })
}
