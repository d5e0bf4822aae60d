//! Captures by approach and withdrawal, from their definition: a piece steps one square along a
//! line to an empty square; by approach it takes the enemy piece on the next square beyond in the
//! same direction, by withdrawal the enemy piece directly behind the square it left; either way
//! together with the unbroken line of enemy pieces that follows. The same piece may go on while a
//! step takes, never to a square it has stood on this turn (`no return to a visited square`), never
//! twice in a row in one direction (`no two steps in one direction`), never straight back (`no 180
//! turn`); taken pieces leave the board at once. Under `may stop after any jump` every capturing
//! step may end the move; otherwise a capture ends only where no step takes.

use super::{dirs, Board, Seq, C};
use damelab::spec::CaptureOp;

/// Whether some piece of the variant captures by approach or withdrawal.
pub fn used(spec: &damelab::spec::VariantSpec) -> bool {
    spec.pieces.iter().any(|p| {
        p.captures
            .iter()
            .any(|c| matches!(c, CaptureOp::Approach { .. } | CaptureOp::Withdrawal { .. }))
    })
}

/// A capture sequence under way, with the squares stood on.
struct Walk {
    seq: Seq,
    visited: Vec<C>,
}

impl Board<'_> {
    /// The square one step from `c` in direction `d` along a line, if the board has it.
    fn along(&self, c: C, d: u8) -> Option<C> {
        self.next(c, d)
    }

    /// The line of enemy pieces this sequence may take, from `first` on in direction `d`.
    fn line_from(&self, s: &Seq, first: C, d: u8) -> Vec<C> {
        let mut line = Vec::new();
        let mut c = Some(first);
        while let Some(t) = c {
            if !self.capturable(s, t) {
                break;
            }
            line.push(t);
            c = self.along(t, d);
        }
        line
    }

    /// Every capturing step from where `w` stands: (direction, landing square, line taken).
    fn capturing_steps(&self, w: &Walk) -> Vec<(u8, C, Vec<C>)> {
        let spec = self.spec;
        let s = &w.seq;
        let piece = &spec.pieces[s.kind as usize];
        let (mut approach, mut withdrawal) = (0u8, 0u8);
        for op in &piece.captures {
            match op {
                CaptureOp::Approach { dirs } => approach |= dirs,
                CaptureOp::Withdrawal { dirs } => withdrawal |= dirs,
                _ => {}
            }
        }
        let (approach, withdrawal) = (dirs(approach, self.side), dirs(withdrawal, self.side));
        let mut out = Vec::new();
        for d in 0..8u8 {
            let (a, wd) = (approach.contains(&d), withdrawal.contains(&d));
            if !a && !wd {
                continue;
            }
            if let Some(l) = s.last {
                if (spec.captures.no_same_direction && l == d)
                    || (spec.captures.no_180_turn && (l + 4) % 8 == d)
                {
                    continue;
                }
            }
            let Some(land) = self.along(s.cur, d) else {
                continue;
            };
            if !self.empty(s, land) || (spec.captures.no_revisit && w.visited.contains(&land)) {
                continue;
            }
            if a {
                if let Some(t) = self.along(land, d) {
                    let line = self.line_from(s, t, d);
                    if !line.is_empty() {
                        out.push((d, land, line));
                    }
                }
            }
            if wd {
                let back = (d + 4) % 8;
                if let Some(t) = self.along(s.cur, back) {
                    let line = self.line_from(s, t, back);
                    if !line.is_empty() {
                        out.push((d, land, line));
                    }
                }
            }
        }
        out
    }

    fn walk(&self, w: Walk, done: &mut Vec<Seq>) {
        // `single step`: a capture is one step, never more.
        let steps = if self.spec.captures.single_jump && !w.seq.taken.is_empty() {
            Vec::new()
        } else {
            self.capturing_steps(&w)
        };
        let may_stop = self.spec.captures.may_stop;
        if !w.seq.taken.is_empty() && (may_stop || steps.is_empty()) {
            done.push(w.seq.clone());
        }
        for (d, land, line) in steps {
            let mut seq = w.seq.clone();
            for t in line {
                seq.taken.push((t, self.pieces[&t].1));
            }
            seq.route.push(land);
            seq.cur = land;
            seq.last = Some(d);
            let mut visited = w.visited.clone();
            visited.push(land);
            self.walk(Walk { seq, visited }, done);
        }
    }

    /// Every capture sequence by approach or withdrawal of the piece on `origin`.
    pub(super) fn step_captures(&self, origin: C, kind: u8, done: &mut Vec<Seq>) {
        let seq = Seq {
            origin,
            kind0: kind,
            cur: origin,
            kind,
            last: None,
            taken: Vec::new(),
            route: Vec::new(),
        };
        self.walk(
            Walk {
                seq,
                visited: vec![origin],
            },
            done,
        );
    }
}
