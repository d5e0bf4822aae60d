//! The share of a game clock one move gets: every front end that plays on a clock (`damelab match`
//! with `tc=`, the Hub protocol's `level time=… inc=…`) asks this one function, so a better time
//! manager later changes them all.

use super::Limits;
use std::time::Duration;

/// How long the move at `ply` (plies played in the game so far) should think with `remaining` on
/// the clock and `increment` added after each move. The target is a fixed share of what is left (a
/// game is taken to last about 30 more moves of this side) plus most of the increment, never more
/// than half of what is left and never below a millisecond; the search's time manager (the
/// `clock` option) stops near it, earlier when its best move is stable and later when it is not.
/// The hard limit is five targets, never more than two fifths of what is left.
pub fn move_limits(remaining: Duration, increment: Duration, ply: u32) -> Limits {
    let _ = ply;
    let left = remaining.as_secs_f64();
    let inc = increment.as_secs_f64();
    let share = left / 30.0 + 0.8 * inc;
    let cap = (left / 2.0).max(0.0);
    let target = share.min(cap).max(0.001);
    let hard = (5.0 * target).min(0.4 * left).max(target);
    Limits {
        depth: None,
        nodes: None,
        time: Some(Duration::from_secs_f64(hard)),
        target: Some(Duration::from_secs_f64(target)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_move_gets_a_share_and_never_the_whole_clock() {
        let l = move_limits(Duration::from_secs(60), Duration::ZERO, 0);
        assert_eq!(l.target, Some(Duration::from_secs(2)));
        assert_eq!(l.time, Some(Duration::from_secs(10)));
        let l = move_limits(Duration::from_millis(100), Duration::from_secs(1), 40);
        assert!(l.target.unwrap() <= Duration::from_millis(50));
        assert!(l.time.unwrap() <= Duration::from_millis(50));
        assert!(l.time.unwrap() >= l.target.unwrap());
    }
}
