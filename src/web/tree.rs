//! A client's game as a tree: every move played from any position is kept, the first child of a
//! node is its main line and the others are variations; PDN out with the variations.

use crate::engine::{Move, Position, Rules};
use crate::notation::move_to_string;
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
}

#[derive(Clone, Debug)]
pub struct Tree {
    pub rules: Arc<Rules>,
    pub nodes: Vec<Node>,
    pub current: usize,
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
            }],
            current: 0,
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
    /// the node before it), recursively; the line is added before its variations, so it stays the
    /// first child (the main line) where it is new. The current node is left at the line's end.
    /// `None` when the tree is full.
    pub fn add_line(
        &mut self,
        from: usize,
        moves: &[Move],
        variations: &[crate::pdn::Variation<Move>],
    ) -> Option<usize> {
        self.current = from;
        let mut line = vec![from];
        for mv in moves {
            line.push(self.play(*mv)?);
        }
        let end = self.current;
        for v in variations {
            // The reader and the replay keep `ply` within the line; a stray one is skipped.
            if let Some(&at) = line.get(v.ply) {
                self.add_line(at, &v.moves, &v.variations)?;
            }
        }
        self.current = end;
        Some(end)
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

    /// The PDN move text of the whole tree: the main line with every variation in parentheses.
    pub fn movetext(&self) -> Vec<String> {
        let mut words = Vec::new();
        self.line_words(0, 0, true, &mut words);
        words
    }

    /// Words of the line that goes on from `node` (whose depth is `ply`), variations included.
    fn line_words(&self, node: usize, ply: usize, force: bool, out: &mut Vec<String>) {
        // With a stack of its own, not recursion: a tree whose variations nest as deep as its
        // nodes allow (one within another, 20,000 levels) cannot overflow the server's stack.
        enum Step {
            /// The line from a node: its main move, its variations, then the rest of it.
            Line(usize, usize, bool),
            /// `(` and a variation's first move (its child, its parent, its ply).
            Open(usize, usize, usize),
            Close,
        }
        let mut steps = vec![Step::Line(node, ply, force)];
        while let Some(step) = steps.pop() {
            match step {
                Step::Line(node, ply, force) => {
                    let children = &self.nodes[node].children;
                    let Some(&main) = children.first() else {
                        continue;
                    };
                    self.move_word(node, main, ply, force, out);
                    steps.push(Step::Line(main, ply + 1, children.len() > 1));
                    for &var in children[1..].iter().rev() {
                        steps.push(Step::Close);
                        steps.push(Step::Line(var, ply + 1, false));
                        steps.push(Step::Open(var, node, ply));
                    }
                }
                Step::Open(var, parent, ply) => {
                    out.push("(".into());
                    self.move_word(parent, var, ply, true, out);
                }
                Step::Close => out.push(")".into()),
            }
        }
    }

    fn move_word(
        &self,
        parent: usize,
        child: usize,
        ply: usize,
        force: bool,
        out: &mut Vec<String>,
    ) {
        let Some(mv) = self.nodes[child].mv else {
            return;
        };
        let text = move_to_string(&self.rules, &mv);
        let (n, first) = self.number(parent, ply);
        if first {
            out.push(format!("{n}. {text}"));
        } else if force {
            out.push(format!("{n}... {text}"));
        } else {
            out.push(text);
        }
    }

    /// The tree as PDN: the tags and result of the main line ([`crate::pdn::write_game`]), then
    /// the move text with the variations.
    pub fn to_pdn(&self) -> String {
        let mut main = Game::from_position(self.rules.clone(), self.nodes[0].pos);
        for &id in &self.main_line()[1..] {
            if let Some(mv) = self.nodes[id].mv {
                main.play(mv);
            }
        }
        let full = crate::pdn::write_game(&main, &[], &[], None);
        let head = full.split("\n\n").next().unwrap_or_default();
        let result = crate::pdn::result_token(&main);
        let mut words = self.movetext();
        words.push(result.to_string());
        // A `(` goes with the word after it: a line never ends with one.
        let mut glued: Vec<String> = Vec::with_capacity(words.len());
        let mut open = String::new();
        for w in words {
            if w == "(" {
                open.push('(');
            } else {
                glued.push(format!("{}{w}", std::mem::take(&mut open)));
            }
        }
        let words = glued;
        let mut out = format!("{head}\n\n");
        let mut line = String::new();
        for w in words {
            let glue = !line.is_empty() && w != ")";
            if !line.is_empty() && line.len() + 1 + w.len() > 79 {
                out.push_str(&line);
                out.push('\n');
                line.clear();
            } else if glue {
                line.push(' ');
            }
            line.push_str(&w);
        }
        out.push_str(&line);
        out.push_str("\n\n");
        out
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
        let words = t.movetext().join(" ");
        assert_eq!(words.matches('(').count(), 2, "{words}");
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
        let words = t.movetext().join(" ");
        assert!(words.contains("( 1."), "{words}");
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
