//! A client's game as a tree: every move played from any position is kept, the first child of a
//! node is its main line and the others are variations; PDN out with the variations.

use crate::engine::{Move, Position, Rules};
use crate::pdn::{Notes, Variation};
use crate::Game;
use std::sync::Arc;

/// The most positions one client's tree holds: a bound on the memory a page can make the server
/// keep (a game of draughts is some hundred plies; this is room for many variations).
pub const MAX_NODES: usize = 20_000;

#[derive(Clone, Debug)]
pub struct Node {
    pub parent: Option<usize>,
    /// The move that led here (`None` at the root).
    pub mv: Option<Move>,
    pub pos: Position,
    /// The main line first, then the variations in the order they were played.
    pub children: Vec<usize>,
    /// The child `redo` goes to: the one last left by `undo` or `goto`.
    pub redo: usize,
    /// The NAGs and comment of the move that led here (at the root: the comment before the
    /// first move).
    pub notes: Notes,
}

#[derive(Clone, Debug)]
pub struct Tree {
    pub rules: Arc<Rules>,
    pub nodes: Vec<Node>,
    pub current: usize,
    /// The tags of the game it was read from (players, event…), written back by [`Tree::to_pdn`].
    pub tags: Vec<(String, String)>,
}

impl Tree {
    pub fn new(rules: Arc<Rules>, start: Position) -> Tree {
        Tree {
            rules,
            nodes: vec![Node {
                parent: None,
                mv: None,
                pos: start,
                children: Vec::new(),
                redo: 0,
                notes: Notes::default(),
            }],
            current: 0,
            tags: Vec::new(),
        }
    }

    /// The node ids from the root to `id`, both included.
    pub fn path_to(&self, id: usize) -> Vec<usize> {
        let mut path = vec![id];
        let mut at = id;
        while let Some(p) = self.nodes[at].parent {
            path.push(p);
            at = p;
        }
        path.reverse();
        path
    }

    /// The moves from the root to `id`.
    pub fn moves_to(&self, id: usize) -> Vec<Move> {
        self.path_to(id)
            .iter()
            .filter_map(|&n| self.nodes[n].mv)
            .collect()
    }

    /// The game from the root to the current node: its result and repetitions need the history.
    pub fn game(&self) -> Game {
        let mut g = Game::from_position(self.rules.clone(), self.nodes[0].pos);
        for mv in self.moves_to(self.current) {
            g.play(mv);
        }
        g
    }

    /// Play `mv` (legal in the current position): the existing child when it was played before,
    /// else a new variation (the main line when it is the first). `None` when the tree is full.
    pub fn play(&mut self, mv: Move) -> Option<usize> {
        let cur = self.current;
        let existing = self.nodes[cur].children.iter().copied().find(|&c| {
            self.nodes[c]
                .mv
                .is_some_and(|m| m.same_move(&mv) && m.route() == mv.route())
        });
        let id = match existing {
            Some(c) => c,
            None => {
                if self.nodes.len() >= MAX_NODES {
                    return None;
                }
                let pos = self.rules.play(&self.nodes[cur].pos, &mv);
                self.nodes.push(Node {
                    parent: Some(cur),
                    mv: Some(mv),
                    pos,
                    children: Vec::new(),
                    redo: 0,
                    notes: Notes::default(),
                });
                let id = self.nodes.len() - 1;
                self.nodes[cur].children.push(id);
                id
            }
        };
        self.nodes[cur].redo = id;
        self.current = id;
        Some(id)
    }

    /// Go to any node; each node on the way remembers the child taken, for `redo`.
    pub fn goto(&mut self, id: usize) -> bool {
        if id >= self.nodes.len() {
            return false;
        }
        let path = self.path_to(id);
        for w in path.windows(2) {
            self.nodes[w[0]].redo = w[1];
        }
        self.current = id;
        true
    }

    pub fn undo(&mut self) -> bool {
        match self.nodes[self.current].parent {
            Some(p) => {
                self.nodes[p].redo = self.current;
                self.current = p;
                true
            }
            None => false,
        }
    }

    pub fn redo(&mut self) -> bool {
        let node = &self.nodes[self.current];
        let next = if node.children.contains(&node.redo) {
            node.redo
        } else {
            match node.children.first() {
                Some(&c) => c,
                None => return false,
            }
        };
        self.current = next;
        true
    }

    /// Add a line of moves from node `from` (each legal where it is played), with its
    /// variations (a variation at `ply` replaces the line's move `ply`, so it branches off from
    /// the node before it), and theirs; the line is added before its variations, so it stays the
    /// first child (the main line) where it is new. The current node is left at the line's end.
    /// `None` when the tree is full. With a stack of its own, not recursion: variations nested as
    /// deep as a file or a session makes them cannot overflow the stack.
    pub fn add_line(
        &mut self,
        from: usize,
        moves: &[Move],
        variations: &[Variation<Move>],
    ) -> Option<usize> {
        let mut end = None;
        let mut todo = vec![(from, moves, variations)];
        while let Some((from, moves, variations)) = todo.pop() {
            self.current = from;
            let mut line = vec![from];
            for mv in moves {
                line.push(self.play(*mv)?);
            }
            end.get_or_insert(self.current);
            // The reader and the replay keep `ply` within the line; a stray one is skipped.
            for v in variations.iter().rev() {
                if let Some(&at) = line.get(v.ply) {
                    todo.push((at, &v.moves, &v.variations));
                }
            }
        }
        let end = end.unwrap_or(from);
        self.current = end;
        Some(end)
    }

    /// A tree of one game: its moves (those taken back included) as the main line, its
    /// variations as the other lines, the current node where the game stands. `None` when the
    /// tree would be over [`MAX_NODES`].
    pub fn of_game(game: &Game, variations: &[Variation<Move>]) -> Option<Tree> {
        let mut tree = Tree::new(game.rules.clone(), *game.start());
        let mut all = game.moves().to_vec();
        all.extend(game.ahead());
        tree.add_line(0, &all, variations)?;
        let line = tree.main_line();
        tree.current = line[game.moves().len().min(line.len() - 1)];
        Some(tree)
    }

    /// The child of `node` reached by `mv`: the same move (and, when `route` is set, the same
    /// route through the pieces it takes).
    pub fn child(&self, node: usize, mv: &Move, route: bool) -> Option<usize> {
        self.nodes[node].children.iter().copied().find(|&c| {
            self.nodes[c]
                .mv
                .is_some_and(|m| m.same_move(mv) && (!route || m.route() == mv.route()))
        })
    }

    /// Make the line through `id` the main line: on the way from the root, each node's child
    /// towards `id` comes first and the main child it replaces goes last, after the other
    /// variations (the order a line left is kept in).
    pub fn promote(&mut self, id: usize) {
        for w in self.path_to(id).windows(2) {
            let children = &mut self.nodes[w[0]].children;
            let old = children[0];
            if old != w[1] {
                children.retain(|&c| c != w[1] && c != old);
                children.insert(0, w[1]);
                children.push(old);
            }
        }
    }

    /// Go one move forward along the main line (the first child).
    pub fn forward(&mut self) -> bool {
        match self.nodes[self.current].children.first() {
            Some(&c) => {
                self.current = c;
                true
            }
            None => false,
        }
    }

    /// The moves from the current node to the end of its line (first children all the way).
    pub fn ahead(&self) -> Vec<Move> {
        let mut moves = Vec::new();
        let mut at = self.current;
        while let Some(&c) = self.nodes[at].children.first() {
            moves.extend(self.nodes[c].mv);
            at = c;
        }
        moves
    }

    /// The main line as a game standing at the current node (which is on it), the rest of the
    /// line ahead of it for `redo`.
    pub fn line_game(&self) -> Game {
        let mut g = Game::from_position(self.rules.clone(), self.nodes[0].pos);
        let line = self.main_line();
        let at = line.iter().position(|&n| n == self.current);
        let mut ahead = Vec::new();
        for (i, &n) in line[1..].iter().enumerate() {
            let Some(mv) = self.nodes[n].mv else { continue };
            if at.is_some_and(|a| i < a) {
                g.play(mv);
            } else {
                ahead.push(mv);
            }
        }
        g.set_ahead(&ahead);
        g
    }

    /// The lines off the main line, as PDN variations: each at the ply of the main line's move
    /// it replaces, holding the variations of its own line. Built without recursion.
    pub fn variations(&self) -> Vec<Variation<Move>> {
        // Every line: the line it branches from (an index into `entries`; the first entry
        // stands for the main line) and the variation it becomes.
        struct Entry {
            parent: usize,
            var: Variation<Move>,
        }
        let mut entries = vec![Entry {
            parent: usize::MAX,
            var: Variation::new(0, Vec::new()),
        }];
        // (the entry, the node its moves go on from)
        let mut todo = vec![(0usize, 0usize)];
        while let Some((entry, from)) = todo.pop() {
            // The main line's variations replace its moves from the first; a variation's own
            // from its second (its first is the move it starts with, from `from`).
            let mut at = from;
            let mut ply = usize::from(entry != 0);
            loop {
                let children = &self.nodes[at].children;
                for &var in children.iter().skip(1) {
                    entries.push(Entry {
                        parent: entry,
                        var: Variation::new(ply, Vec::new()),
                    });
                    let id = entries.len() - 1;
                    entries[id].var.moves.extend(self.nodes[var].mv);
                    todo.push((id, var));
                }
                let Some(&main) = children.first() else { break };
                entries[entry].var.moves.extend(self.nodes[main].mv);
                at = main;
                ply += 1;
            }
        }
        // Children were numbered after their parents: fold them in from the last.
        let mut folded: Vec<Vec<Variation<Move>>> =
            (0..entries.len()).map(|_| Vec::new()).collect();
        while entries.len() > 1 {
            let Some(Entry { parent, mut var }) = entries.pop() else {
                break;
            };
            let id = entries.len();
            var.variations = std::mem::take(&mut folded[id]);
            var.variations.reverse();
            folded[parent].push(var);
        }
        let mut top = std::mem::take(&mut folded[0]);
        top.reverse();
        top
    }

    /// The lines off the main line: how many branch from it, and how many moves they hold.
    pub fn off_main(&self) -> (usize, usize) {
        let line = self.main_line();
        let branches = line
            .iter()
            .map(|&n| self.nodes[n].children.len().saturating_sub(1))
            .sum();
        (branches, self.nodes.len() - line.len())
    }

    /// The main line from the root: first children all the way.
    pub fn main_line(&self) -> Vec<usize> {
        let mut line = vec![0];
        while let Some(&c) = self.nodes[*line.last().unwrap_or(&0)].children.first() {
            line.push(c);
        }
        line
    }

    /// The move number and dots a move gets when written after `parent`: `3.` before the first
    /// side's move, `3...` before the other's.
    pub fn number(&self, parent: usize, ply: usize) -> (usize, bool) {
        let start_turn = self.nodes[0].pos.turn();
        let first = self.rules.spec.first_to_move as usize;
        // Plies counted as if the game had started with the first side to move.
        let offset = usize::from(start_turn != first);
        let n = (ply + offset) / 2 + 1;
        (n, self.nodes[parent].pos.turn() == first)
    }

    /// The main line as a game from the root to its end.
    pub fn main_game(&self) -> Game {
        let mut main = Game::from_position(self.rules.clone(), self.nodes[0].pos);
        for &id in &self.main_line()[1..] {
            if let Some(mv) = self.nodes[id].mv {
                main.play(mv);
            }
        }
        main
    }

    /// The tree as PDN: its tags, the `GameType` and result of the main line, its moves with
    /// every other line as a variation, each move's NAGs (`!`…`?!` as marks, others as `$n`)
    /// and comment. With a stack of its own, not recursion.
    pub fn to_pdn(&self) -> String {
        let main = self.main_game();
        let result = crate::pdn::result_token(&main);
        let mut out = crate::pdn::write_tags(&main, &self.tags, result, None);
        let mut words = Vec::new();
        if !self.nodes[0].notes.comment.is_empty() {
            words.push(crate::pdn::comment_word(&self.nodes[0].notes.comment));
        }
        let depth = self.depths();
        /// What is left to write, the next step last.
        enum Step {
            /// The move leading to the node; with its number when `true`.
            Move(usize, bool),
            /// The line on from the node; its first move numbered when `true`.
            Line(usize, bool),
            Open,
            Close,
        }
        let mut todo = vec![Step::Line(0, true)];
        let mut open = 0usize;
        while let Some(step) = todo.pop() {
            match step {
                Step::Open => open += 1,
                Step::Close => {
                    if let Some(w) = words.last_mut() {
                        w.push(')');
                    }
                }
                Step::Move(id, force) => {
                    let mut w = "(".repeat(std::mem::take(&mut open));
                    w.push_str(&self.move_word(id, depth[id], force));
                    words.push(w);
                    if !self.nodes[id].notes.comment.is_empty() {
                        words.push(crate::pdn::comment_word(&self.nodes[id].notes.comment));
                    }
                }
                Step::Line(id, force) => {
                    let kids = &self.nodes[id].children;
                    let Some(&main) = kids.first() else { continue };
                    // Last: the line goes on after its variations, numbered again after one
                    // (or after a comment).
                    let again = kids.len() > 1 || !self.nodes[main].notes.comment.is_empty();
                    todo.push(Step::Line(main, again));
                    for &v in kids[1..].iter().rev() {
                        todo.push(Step::Close);
                        todo.push(Step::Line(v, !self.nodes[v].notes.comment.is_empty()));
                        todo.push(Step::Move(v, true));
                        todo.push(Step::Open);
                    }
                    todo.push(Step::Move(main, force));
                }
            }
        }
        words.push(result.to_string());
        out.push_str(&crate::pdn::wrap_words(words));
        out
    }

    /// Every node's depth (the root's is 0): parents come before their children in the tree.
    pub fn depths(&self) -> Vec<usize> {
        let mut depth = vec![0usize; self.nodes.len()];
        for (i, n) in self.nodes.iter().enumerate() {
            if let Some(p) = n.parent {
                depth[i] = depth[p] + 1;
            }
        }
        depth
    }

    /// The move leading to node `id` (at `depth`) as PDN writes it: `12.` before the first
    /// side's move, `12...` before the other's when `force`, its NAGs after it.
    fn move_word(&self, id: usize, depth: usize, force: bool) -> String {
        let node = &self.nodes[id];
        let (Some(parent), Some(mv)) = (node.parent, node.mv) else {
            return String::new();
        };
        let (n, first) = self.number(parent, depth.saturating_sub(1));
        let text = crate::notation::move_to_string(&self.rules, &mv);
        let mut w = match (first, force) {
            (true, _) => format!("{n}. {text}"),
            (false, true) => format!("{n}... {text}"),
            (false, false) => text,
        };
        for &nag in &node.notes.nags {
            match crate::pdn::mark_of_nag(nag) {
                Some(m) => w.push_str(m),
                None => w.push_str(&format!(" ${nag}")),
            }
        }
        w
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::GenOptions;
    use crate::Variant;

    fn first_move(t: &Tree, i: usize) -> Move {
        let mut out = Vec::new();
        t.rules
            .generate(&t.nodes[t.current].pos, &mut out, GenOptions::default());
        out[i]
    }

    #[test]
    fn a_line_with_nested_variations_is_added_as_a_tree() {
        use crate::pdn::Variation;
        let v = Variant::load("international").unwrap();
        // Moves found by playing them: a b on the main line; b2 c2 instead of b; c3 instead of c2.
        let mut t = Tree::new(v.rules.clone(), v.rules.start);
        let a = first_move(&t, 0);
        t.play(a);
        let (b, b2) = (first_move(&t, 0), first_move(&t, 1));
        t.play(b2);
        let (c2, c3) = (first_move(&t, 0), first_move(&t, 1));
        let mut var = Variation::new(1, vec![b2, c2]);
        var.variations.push(Variation::new(1, vec![c3]));
        let mut t = Tree::new(v.rules.clone(), v.rules.start);
        let end = t.add_line(0, &[a, b], &[var]).unwrap();
        assert_eq!(t.current, end);
        assert_eq!(t.main_line(), vec![0, 1, 2], "the main line is a b");
        assert_eq!(t.nodes[1].children.len(), 2, "b2 is a variation of b");
        let at_b2 = t.nodes[1].children[1];
        assert!(t.nodes[at_b2].mv.unwrap().same_move(&b2));
        assert_eq!(t.nodes[at_b2].children.len(), 2, "c3 is a variation of c2");
        assert_eq!(t.nodes.len(), 6);
        let pdn = t.to_pdn();
        assert_eq!(pdn.matches('(').count(), 2, "{pdn}");
        let vars = t.variations();
        assert_eq!(vars.len(), 1, "one line branches off the main line");
        assert_eq!(
            (vars[0].ply, vars[0].moves.len()),
            (1, 2),
            "b2 c2 instead of b"
        );
        assert_eq!(vars[0].variations.len(), 1, "c3 instead of c2");
        assert_eq!(vars[0].variations[0].ply, 1);
        assert_eq!(t.off_main(), (1, 3));
    }

    /// A line left at every ply, from the last back to the first, as the REPL leaves lines: each
    /// old line becomes a variation holding the one left before it, 3,000 deep. Listing,
    /// writing and dropping them runs on a 256 KiB stack: nothing recurses per level.
    #[test]
    fn variations_nested_thousands_deep_need_no_stack() {
        let v = Variant::load("international").unwrap();
        let pos = crate::notation::parse_fen(&v.rules, "W:WK46:BK1").unwrap();
        let mut t = Tree::new(v.rules.clone(), pos);
        const DEPTH: usize = 3_000;
        // The kings go back and forth between two squares each (46-41, 1-6), never in reach of
        // each other: every position has moves enough to branch.
        let mut line: Vec<Move> = Vec::new();
        for ply in 0..DEPTH {
            let mv = match ply.checked_sub(2).map(|p| line[p]) {
                Some(back) => {
                    let mut out = Vec::new();
                    t.rules
                        .generate(&t.nodes[t.current].pos, &mut out, GenOptions::default());
                    *out.iter()
                        .find(|m| m.from == back.to && m.to == back.from)
                        .unwrap()
                }
                None => {
                    let mut out = Vec::new();
                    t.rules
                        .generate(&t.nodes[t.current].pos, &mut out, GenOptions::default());
                    let text = ["46-41", "1-6"][ply];
                    crate::notation::parse_move(&t.rules, &out, text).unwrap()
                }
            };
            line.push(mv);
            t.play(mv).unwrap();
        }
        for ply in (0..DEPTH).rev() {
            let at = t.main_line()[ply];
            t.goto(at);
            let mv = first_move(&t, 1);
            let id = t.play(mv).unwrap();
            t.promote(id);
        }
        let worker = std::thread::Builder::new()
            .stack_size(256 * 1024)
            .spawn(move || {
                let vars = t.variations();
                let (branches, moves) = t.off_main();
                let pdn = t.to_pdn();
                let mut depth = 0;
                let mut at = vars.first();
                while let Some(v) = at {
                    depth += 1;
                    at = v.variations.first();
                }
                drop(vars);
                (branches, moves, depth, pdn.matches('(').count())
            })
            .unwrap();
        let (branches, moves, depth, opened) = worker.join().unwrap();
        assert_eq!(branches, 1, "one line branches off the main line");
        assert_eq!(
            moves,
            2 * DEPTH - 1,
            "the first line and every line left but the last"
        );
        assert_eq!(depth, DEPTH, "each line left holds the one left before it");
        assert_eq!(opened, DEPTH, "one ( a variation");
    }

    #[test]
    fn variations_are_kept_and_written() {
        let v = Variant::load("international").unwrap();
        let mut t = Tree::new(v.rules.clone(), v.rules.start);
        let a = first_move(&t, 0);
        t.play(a);
        let b = first_move(&t, 0);
        t.play(b);
        t.undo();
        t.undo();
        let c = first_move(&t, 1);
        t.play(c);
        assert_eq!(t.nodes.len(), 4);
        assert_eq!(t.nodes[0].children.len(), 2);
        let pdn = t.to_pdn();
        assert!(pdn.contains(" (1."), "{pdn}");
        t.undo();
        assert!(t.redo());
        assert_eq!(t.current, 3, "redo follows the variation last left");
        // Playing a move again goes to the node that is there.
        t.undo();
        t.play(a);
        assert_eq!(t.current, 1);
        assert_eq!(t.nodes.len(), 4);
    }
}
