//! The PDN files of runs: each game's text starts with the line of its `Event` tag (every run
//! writes its games so), which is how a shard's file is cut into its games again for a merge
//! ([`split_games`]), and how the games of every shard are put back in game order
//! ([`merge_by_index`]) once the run's command has placed each (self-play, ladders, matches).

use super::shard::{check_pdn_games, PdnGamesError};

/// The games of a PDN file a run wrote, each from its `Event` tag's line to the next one, with
/// the line number it starts on (from 1). Text before the first `Event` line belongs to no game.
pub fn split_games(text: &str) -> Vec<(usize, &str)> {
    let mut starts: Vec<(usize, usize)> = Vec::new();
    let mut at = 0;
    for (n, line) in text.split_inclusive('\n').enumerate() {
        if line.starts_with("[Event ") {
            starts.push((n + 1, at));
        }
        at += line.len();
    }
    starts
        .iter()
        .enumerate()
        .map(|(j, &(line, s))| {
            let end = starts.get(j + 1).map_or(text.len(), |x| x.1);
            (line, &text[s..end])
        })
        .collect()
}

/// A game of a shard's PDN file and its place in a merge: the run it is of (0 when one run is
/// merged; a ladder's rung) and its index in that run (from 0).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Placed<'t> {
    pub run: usize,
    pub index: u64,
    pub text: &'t str,
}

/// The PDN of runs merged by game index: the placed games of the shards' PDN files as one text,
/// the runs in order and each run's games in game order, each game's text followed by one blank
/// line — the PDN the runs played at once write. `runs` are each run's merged game indices
/// (sorted): the games placed in each must be exactly those, none twice or missing, or `wrong`
/// makes the error of that run's ([`check_pdn_games`]).
pub fn merge_by_index<E>(
    mut games: Vec<Placed<'_>>,
    runs: &[Vec<u64>],
    wrong: impl Fn(usize, PdnGamesError) -> E,
) -> Result<String, E> {
    games.sort_by_key(|g| (g.run, g.index));
    for (r, merged) in runs.iter().enumerate() {
        let have: Vec<u64> = games
            .iter()
            .filter(|g| g.run == r)
            .map(|g| g.index)
            .collect();
        check_pdn_games(&have, merged.iter().copied()).map_err(|why| wrong(r, why))?;
    }
    let mut out = String::new();
    for g in games {
        out.push_str(g.text.trim_end());
        out.push_str("\n\n");
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn games_start_at_their_event_line() {
        let text = "% a note\n[Event \"a\"]\n1. a1-a2 *\n\n[Event \"b\"]\n[Round \"2\"]\n*\n";
        let games = split_games(text);
        assert_eq!(
            games,
            [
                (2, "[Event \"a\"]\n1. a1-a2 *\n\n"),
                (5, "[Event \"b\"]\n[Round \"2\"]\n*\n")
            ]
        );
        assert!(split_games("no games here\n").is_empty());
    }

    #[test]
    fn games_merge_in_run_and_game_order() {
        let at = |run, index, text| Placed { run, index, text };
        let games = vec![at(1, 0, "c\n"), at(0, 1, "b\n\n"), at(0, 0, "a")];
        let runs = [vec![0, 1], vec![0]];
        let text = merge_by_index(games.clone(), &runs, |r, e| (r, e));
        assert_eq!(text, Ok("a\n\nb\n\nc\n\n".to_string()));
        let twice = merge_by_index(vec![games[2], games[2], games[1]], &runs, |r, e| (r, e));
        assert_eq!(twice, Err((0, PdnGamesError::Twice { game: 0 })));
        let lacking = merge_by_index(games[1..].to_vec(), &runs, |r, e| (r, e));
        assert_eq!(
            lacking,
            Err((
                1,
                PdnGamesError::Lacking {
                    lack: vec![1],
                    merged: 1
                }
            ))
        );
    }
}
